"""Many tables at a thoughtful pace under Telegram's real limits, more than one token carries:
the outbox serves the calls by rank (bot/telegram/sending/budgets.py ``Rank``), the acting
players' buttons first. Figures: answers of 429; how long the next player waits for his turn
buttons (from the press that made it his turn to the call that showed them), over the turns
shown while the tables played (each table's last turn, which nothing can fold, apart); the
turns folded (the table's next action came before they were shown); turns never
shown by the end of the run (lost, not folded); the sends+edits a second the token spent.

Each action of a table needs at least its next player's buttons (one edit), so tables x their
actions a second above the ~30 calls a second of the token cannot all be served at once: the
calls wait in one line, the newest turn first (bot/telegram/sending/gate.py), and a turn
still waiting when its table moves on is folded into the next.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from bench.bot_bench import MESSAGE_CALLS, _percentile, _seed, next_move, seen
from bench.figures import Figure
from bot.telegram.context import BotData
from bot.ui.callbacks import action_data, pack
from tests.bot.harness import running_bot
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.fakebot.model import ApiCall

# tables, seconds between a table's actions, seconds of play; --quick: 60 tables at 1.5 s
# (the same 40 actions a second) for less long, as the token's startup
# drawing of the tables (4 calls a table) and the backlog at the end take most of the time
SIZES = {False: (200, 5.0, 60.0), True: (60, 1.5, 8.0)}


async def _table(tg: FakeTelegram, hub: BotData, users: list[User], table_id: int,
                 pace: float, until: float, turns: list[tuple[float, int, str]],
                 rng: random.Random) -> None:
    """Press a legal action every ``pace`` seconds; ``turns``: when each turn came, to whom
    (a chat) and what its buttons' data begin with."""
    await asyncio.sleep(rng.uniform(0, pace))  # the tables do not start in step
    while tg.world.now() < until:
        started = tg.world.now()
        move = next_move(hub, table_id)
        if move is not None:
            version, seat, player, action = move
            query = tg.press_nowait(users[player], tg.last_message(users[player]),
                                    data=action_data(table_id, version, seat, action),
                                    forge=True)
            await asyncio.wait({query.answer}, timeout=60)
            after = next_move(hub, table_id)
            if after is not None and after[0] > version:
                turns.append((started, users[after[2]].id,
                              pack("a", table_id, after[0], after[1]) + ":"))
        await asyncio.sleep(max(0.0, pace - (tg.world.now() - started)))


def _waits(calls: list[ApiCall], turns: list[tuple[float, int, str]]) -> list[float | None]:
    """For each turn, how long until a call showed its buttons (None: never)."""
    shown: dict[int | str | None, list[tuple[float, str]]] = defaultdict(list)
    for call in calls:
        markup = call.params.get("reply_markup") or {}
        if call.status == 200 and call.method in MESSAGE_CALLS and markup:
            data = " ".join(str(b.get("callback_data", ""))
                            for row in markup.get("inline_keyboard", []) for b in row)
            shown[call.chat_id].append((call.time, data))
    return [next((moment - when for moment, data in shown[chat]
                  if moment >= when and prefix in data), None)
            for when, chat, prefix in turns]


async def _saturated(tables: int, pace: float, seconds: float,
                     ) -> tuple[list[float | None], int, int, float,
                                list[tuple[float, int, str]]]:
    """The turns' waits, the answers of 429, the tables whose turn is not shown once the
    presses stopped and the bot sent what it had, the sends+edits a second, the turns."""
    rng = random.Random(tables)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        async with FakeTelegram(flood=FloodLimits()) as tg:
            seated = await _seed(db, tg, tables)
            async with running_bot(tg, db) as hub:
                await tg.idle(timeout=600)
                seen(hub)
                ids = {t.chat_id: t.id for t in hub.services.tables.values()}
                first, began = len(tg.calls), tg.world.now()
                turns: list[tuple[float, int, str]] = []
                await asyncio.gather(*(_table(tg, hub, users, ids[group.id], pace,
                                              began + seconds, turns,
                                              random.Random(rng.getrandbits(64)))
                                       for group, users in seated))
                ended = tg.world.now()
                await tg.idle(timeout=300)
                calls = tg.calls[first:]
                sent = sum(c.method in MESSAGE_CALLS and c.status == 200 and c.time <= ended
                           for c in calls)
                lost = 0
                for group, users in seated:
                    move = next_move(hub, ids[group.id])
                    if move is not None:
                        version, seat, player, _ = move
                        buttons = tg.last_message(users[player]).buttons
                        lost += not any(str(b.get("callback_data", "")).startswith(
                            pack("a", ids[group.id], version, seat) + ":") for b in buttons)
                return (_waits(calls, turns), sum(c.status == 429 for c in calls), lost,
                        sent / (ended - began), turns)


def _lasts(turns: list[tuple[float, int, str]]) -> set[int]:
    """The indexes of each table's last turn (no action of its table came after it)."""
    last: dict[str, int] = {}
    for index, (_, _, prefix) in enumerate(turns):
        table = prefix.split(":")[1]
        if table not in last or turns[last[table]][0] < turns[index][0]:
            last[table] = index
    return set(last.values())


def run(quick: bool) -> list[Figure]:
    tables, pace, seconds = SIZES[quick]
    waits, refused, lost, rate, turns = asyncio.run(_saturated(tables, pace, seconds))
    # a turn never shown (the table's next action came first) is folded: its player saw the
    # next moment instead; the waits are those of the turns shown while the tables played
    # (a table's last turn cannot fold: what the token owed when the presses stopped all at
    # once is shown then, the newest first, and said apart)
    lasts = _lasts(turns)
    shown = [w for i, w in enumerate(waits) if w is not None and i not in lasts]
    drained = [w for i, w in enumerate(waits) if w is not None and i in lasts]
    folded = sum(w is None for w in waits)
    least = max(0.0, 1 - 30 * pace / tables)  # one call a turn, 30 a second for all
    note = (f"{tables} tables, an action every {pace:g} s each for {seconds:g} s under "
            f"Telegram's limits; {len(waits)} turns, {len(shown)} shown while the tables "
            "played")
    return [
        Figure("saturated", f"answers of 429, {tables} tables", refused, "calls", "goal 0"),
        Figure("saturated", f"next player's buttons median, {tables} tables",
               statistics.median(shown), "s", note + "; goal < 1"),
        Figure("saturated", f"next player's buttons p99, {tables} tables",
               _percentile(shown, 0.99), "s", "of the turns shown while the tables played; "
               "goal < 3"),
        Figure("saturated", f"last turns' buttons p99, {tables} tables",
               _percentile(drained, 0.99), "s",
               f"each table's last turn ({len(drained)} shown): what the token owed when all "
               "the presses stopped at once, shown the newest first (none can fold)"),
        Figure("saturated", f"turns folded into the next, {tables} tables",
               100 * folded / len(waits), "%",
               f"never shown: the table's next action came first (at one call a turn, at least "
               f"{100 * least:.0f} % must fold when {tables / pace:g} actions a second share 30 "
               "calls)"),
        Figure("saturated", f"turns lost, {tables} tables", lost, "tables",
               "whose turn is not shown once the presses stopped and the bot sent what it "
               "had; goal 0"),
        Figure("saturated", f"sends+edits a second, {tables} tables", rate, "calls/s",
               f"the token allows ~30; the tables ask {tables / pace:g} actions a second, "
               "each at least its next player's buttons"),
    ]


if __name__ == "__main__":  # python -m bench.saturated [--quick]
    for figure in run("--quick" in sys.argv):
        print(figure.row(), flush=True)
