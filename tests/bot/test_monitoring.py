"""/healthz and /metrics scraped during a game: on the Mini App's port, and on METRICS_PORT;
a worker's and the receiver's; /healthz names what fails."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from prometheus_client.parser import text_string_to_metric_families
from telegram import Bot

from bot.monitoring.metrics import TELEGRAM
from bot.monitoring.server import Monitor, serve
from storage.store import Storage
from tests.bot.harness import press_first
from tests.bot.test_sends import _worker_env
from tests.bot.test_workers import Cluster, _button
from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer
from tests.webapp.harness import bot_with_webapp, free_port, started

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(http: ClientSession, url: str) -> Samples:
    async with http.get(url + "metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_a_scrape_during_a_game(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob, cid = (tg.add_user(name) for name in ("Ann", "Bob", "Cid"))
    group = tg.add_group("Cards", [ann, bob, cid])
    port = free_port()
    async with bot_with_webapp(tg, tmp_path / "bot.db", METRICS_PORT=str(port)) as (hub, url), \
            ClientSession() as http:
        before = await scrape(http, url)  # the registry is the process's: other tests count
        await started(tg, hub, group, [ann, bob, cid])
        presses = 6
        for _ in range(presses):
            assert await press_first(tg, [ann, bob, cid])
        await tg.settled(group)
        during = await scrape(http, url)
        async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
            assert response.status == 200
            health = await response.json()
        elsewhere = await scrape(http, f"http://127.0.0.1:{port}/")

    def grew(name: str, **labels: str) -> float:
        return value(during, name, **labels) - value(before, name, **labels)

    assert health == {"status": "ok", "database": "ok", "telegram": "ok"}
    assert grew("cardtable_presses_total", game="preferans") >= presses
    assert grew("cardtable_actions_total", game="preferans") >= presses
    assert grew("cardtable_telegram_call_seconds_count", method="sendMessage") > 0
    assert grew("cardtable_telegram_answers_total", method="sendMessage", code="200") > 0
    assert value(during, "cardtable_telegram_answers_total", method="sendMessage",
                 code="429") == value(before, "cardtable_telegram_answers_total",
                                      method="sendMessage", code="429")
    assert grew("cardtable_commit_seconds_count", backend="sqlite") > 0
    assert value(during, "cardtable_tables_open", game="preferans", status="playing") == 1
    assert value(during, "cardtable_tables_loaded") == 1
    assert ("cardtable_outbox_backlog", frozenset({("chat", "group"), ("kind", "screen")})) \
        in during
    assert value(elsewhere, "cardtable_tables_open", game="preferans", status="playing") == 1


async def test_health_names_what_fails(tg: FakeTelegram, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    storage = await Storage.open(str(tmp_path / "bot.db"))
    await storage.close()  # the database is gone
    nowhere = Bot(tg.token, base_url=f"http://127.0.0.1:{free_port()}/bot")  # nor Telegram
    monkeypatch.setattr(TELEGRAM, "answered_at", None)  # never answered: it is asked
    port = free_port()
    runner = await serve(Monitor(storage.tables.count_open, ask_telegram=nowhere.get_me,
                                 heartbeat=lambda: 7.5), port, host="127.0.0.1")
    try:
        async with ClientSession() as http, \
                http.get(f"http://127.0.0.1:{port}/healthz") as response:
            assert response.status == 503
            health = await response.json()
            scraped = await scrape(http, f"http://127.0.0.1:{port}/")  # what it counted
    finally:
        await runner.cleanup()
    assert health["status"] == "failing"
    assert health["database"].startswith("failed: ")
    assert health["telegram"].startswith("failed: NetworkError")
    assert health["worker"] == "last heartbeat 7.5 s ago"
    assert ("cardtable_tables_loaded", frozenset()) in scraped


async def healthy(http: ClientSession, url: str, timeout: float = 60) -> Any:
    """/healthz's answer once it is 200 (a process starting answers 503 or nothing first)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            async with http.get(url + "healthz") as response:
                if response.status == 200:
                    return await response.json()
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{url}healthz is not healthy"
        await asyncio.sleep(0.2)


async def test_a_workers_and_the_receivers_health_and_metrics(postgres: LazyServer) -> None:
    url = await postgres.new_database()
    async with FakeTelegram() as tg:
        env = _worker_env(tg, url)
        port = free_port()
        cluster = Cluster({**env, "METRICS_PORT": str(port)}, workers=1)
        try:
            await cluster.start(tg)
            ann = tg.add_user("Ann")
            group = tg.add_group("Cards", [ann])
            tg.press_start(ann)
            tg.send(ann, group, "/pref")
            await _button(tg, group, "✋ Join")
            async with ClientSession() as http:
                worker = await healthy(http, f"http://127.0.0.1:{port}/")
                receiver = await healthy(http, f"http://127.0.0.1:{env['PORT']}/")
                scraped = await scrape(http, f"http://127.0.0.1:{port}/")
        finally:
            await cluster.stop()
    assert worker == {"status": "ok", "database": "ok", "telegram": "ok", "worker": "ok"}
    assert receiver == {"status": "ok", "database": "ok"}
    assert value(scraped, "cardtable_worker_lanes_held") >= 1
    assert value(scraped, "cardtable_commit_seconds_count", backend="postgresql") > 0
    assert value(scraped, "cardtable_tables_open", game="preferans", status="lobby") == 1
