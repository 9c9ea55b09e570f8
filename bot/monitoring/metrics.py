"""The bot's Prometheus metrics, in the process's default registry. Counters and histograms
are updated where things happen; the gauges are read at each scrape (``server.Monitor``).
The commit latency is storage's own (``storage.metrics``)."""

from __future__ import annotations

import time

from prometheus_client import Counter, Gauge, Histogram

PRESSES = Counter("cardtable_presses", "Presses that name a table (buttons and Mini App taps)",
                  ["game"])
ACTIONS = Counter("cardtable_actions",
                  "Game actions applied: cards, bids, moves (players', robots', forced)", ["game"])
TELEGRAM_SECONDS = Histogram("cardtable_telegram_call_seconds",
                             "Bot API calls by method: seconds to Telegram's answer", ["method"])
TELEGRAM_ANSWERS = Counter("cardtable_telegram_answers",
                           "Bot API answers by method and HTTP status (429: flood control)",
                           ["method", "code"])
TELEGRAM_FAILURES = Counter("cardtable_telegram_failures",
                            "Bot API calls that got no answer (network errors, timeouts)",
                            ["method"])
ROBOT_SECONDS = Histogram("cardtable_robot_decision_seconds",
                          "Seconds a robot took to choose an action", ["game"])
OUTBOX_BACKLOG = Gauge("cardtable_outbox_backlog",
                       "What waits in the outbox: table messages and panels to draw (screen), "
                       "one-off calls (call), by chat kind", ["chat", "kind"])
TABLES_OPEN = Gauge("cardtable_tables_open", "Open tables in the database by game and status",
                    ["game", "status"])
TABLES_LOADED = Gauge("cardtable_tables_loaded", "Tables this process holds in memory")
DEAD_LETTERS = Counter("cardtable_dead_letters",
                       "Updates a worker set aside after failing every attempt (dead_letters)")
LANES_HELD = Gauge("cardtable_worker_lanes_held",
                   "Lanes whose tables this worker holds (python -m bot work)")


class Reachability:
    """When Telegram last answered this process (any HTTP answer): for /healthz."""

    def __init__(self) -> None:
        self.answered_at: float | None = None  # time.monotonic()

    def answered(self) -> None:
        self.answered_at = time.monotonic()

    def age(self) -> float | None:
        return None if self.answered_at is None else time.monotonic() - self.answered_at


TELEGRAM = Reachability()
