"""Play through the use cases alone: what a move returns, what it stores, what it refuses."""

from __future__ import annotations

import random

from bot.service import events, lobby, play, records
from bot.service.time_settings import TimeSettings
from engine.games import get_game
from engine.records import replay
from tests.service.conftest import World


async def test_a_deal_through_the_use_cases_is_stored_and_told(world: World) -> None:
    svc = world.svc
    players = await world.users(3)
    table = await world.table("preferans", players)
    match = table.match
    assert match is not None and match.state is not None
    told = []
    rng = random.Random(3)
    async for user, out in world.play(table, rng, until=lambda: len(match.outputs) >= 2):
        # whoever must act now, and has not pressed lately, is notified
        assert table.acting_users() - {user} <= out.notify | {
            u for u in table.acting_users()
            if table.is_watching(u, TimeSettings.of(table.row.settings).ping)}
        told += [e for e in out.events if isinstance(e, events.DealScored)]
    assert [e.number for e in told] == [1, 2]
    assert [e.output for e in told] == match.outputs[:2]
    stored = await svc.store.log.record(table.id)
    assert stored == match.record() and replay(stored).report() == match.report()
    assert (await records.load_match(svc.store, table.id)).version == match.version


async def test_refused_presses_change_nothing_and_say_why(world: World) -> None:
    svc = world.svc
    players = await world.users(4)
    table = await world.table("preferans", players[:3])
    match = table.match
    assert match is not None and match.state is not None
    seat = match.state.to_act[0]
    actor = table.user_of(match.state.controller(seat))
    other = next(p.id for p in players[:3] if p.id != actor)
    legal = match.state.legal_actions(seat)[0]
    before = (match.version, await svc.store.log.record(table.id))
    cases = [
        ((actor, match.version - 1, seat, legal), "stale"),
        ((other, match.version, seat, legal), "not_your_turn"),
        ((players[3].id, match.version, seat, legal), "not_playing"),
        ((actor, match.version, seat, "bid:11S"), "bad_bid"),
        ((actor, match.version, seat, "play:7S"), "wrong_phase"),
    ]
    for (user, version, at, action), code in cases:
        async with table.lock:
            out = await play.act(svc, table, user, version, at, action)
        assert out.refusal is not None and out.refusal.code == code, (action, out.refusal)
        assert not out.events
        assert (match.version, await svc.store.log.record(table.id)) == before
    stale = await play.act(svc, table, actor, match.version - 1, seat, legal)
    assert table.id in stale.changed  # the stale panel shows the game as it is


async def test_the_lobby_refuses_rules_the_engine_refuses(world: World) -> None:
    svc = world.svc
    players = await world.users(3)
    table = await world.table("preferans", players, start=False)
    table.row = await svc.store.tables.update_lobby(table.id, rules={"jokers": True})
    out = await lobby.start(svc, table)
    assert out.refusal is not None and out.refusal.code == "rules_refuse"
    assert "jokers" in out.refusal.params["reason"]
    assert table.status == "lobby" and table.match is None
    assert (await svc.store.tables.get_table(table.id)).status == "lobby"
    table.row = await svc.store.tables.update_lobby(table.id, rules={"variant": "peter"})
    assert (await lobby.start(svc, table)).ok
    stored = await svc.store.tables.get_table(table.id)
    assert stored.rules == get_game("preferans").rules.from_dict({"variant": "peter"}).to_dict()
