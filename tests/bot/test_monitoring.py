"""/healthz and /metrics scraped during a game: on the Mini App's port, and on METRICS_PORT."""

from __future__ import annotations

from pathlib import Path

from aiohttp import ClientSession
from prometheus_client.parser import text_string_to_metric_families

from tests.bot.harness import press_first
from tests.fakebot import FakeTelegram
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
