"""Votes through the use cases: one open vote a table, who may answer, what passes, and
votes that outlive a restart."""

from __future__ import annotations

import random
from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service import decisions, events, loading, pausing, stopping
from bot.service.outcome import Outcome
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices
from bot.service.users import Users
from storage.rows import UserRow
from storage.store import Storage
from tests.service.conftest import World


def asked(out: Outcome) -> events.VoteAsked:
    (vote,) = [e for e in out.events if isinstance(e, events.VoteAsked)]
    return vote


async def press(world: World, user: UserRow, vote_id: int, answer: str) -> Outcome:
    table = world.svc.tables.values()[0]
    async with table.lock:
        return await decisions.vote_press(world.svc, table, user, (str(vote_id), answer))


def code(out: Outcome) -> str | None:
    return None if out.refusal is None else out.refusal.code


async def test_one_vote_at_a_time_and_only_the_others_answer(world: World) -> None:
    svc = world.svc
    ann, bob, cid = await world.users(3)
    table = await world.table("preferans", [ann, bob, cid])
    vote = asked(await stopping.request(svc, -100, 0, ann, "leave")).vote
    assert vote.voters == {bob.id, cid.id}
    assert code(await pausing.request(svc, -100, 0, bob, True)) == "vote_open"
    assert code(await press(world, ann, vote.id, "y")) == "voters_only"
    assert (await press(world, bob, vote.id, "y")).note == "agreed"
    refused = await press(world, cid, vote.id, "n")
    (ended,) = [e for e in refused.events if isinstance(e, events.VoteEnded)]
    assert ended.by == "Cid" and refused.note == "refused_vote"
    assert table.status == "playing"
    assert code(await press(world, bob, vote.id, "y")) == "vote_over"
    pause = asked(await pausing.request(svc, -100, 0, bob, True)).vote
    await press(world, ann, pause.id, "y")
    passed = await press(world, cid, pause.id, "y")
    assert any(isinstance(e, events.Paused) for e in passed.events)
    assert table.status == "paused"
    assert (await svc.store.tables.get_table(table.id)).status == "paused"


async def test_an_agreed_stop_settles_the_game(world: World) -> None:
    """After a deal played to its end (a game stopped before that is abandoned, unrated)."""
    svc = world.svc
    ann, bob, cid = await world.users(3)
    table = await world.table("preferans", [ann, bob, cid])
    match = table.match
    assert match is not None
    async for _out in world.play(table, random.Random(5), until=lambda: bool(match.outputs)):
        pass
    vote = asked(await stopping.request(svc, -100, 0, cid, "leave")).vote
    await press(world, ann, vote.id, "y")
    out = await press(world, bob, vote.id, "y")
    (over,) = [e for e in out.events if isinstance(e, events.GameOver)]
    assert over.how == "stopped" and table.status == "finished"
    assert svc.tables.get(table.id) is None
    (game,) = await svc.store.stats.recent_games(-100)
    assert over.match is not None
    assert [r.balance for r in game.results] == over.match.report()["settlement"]


async def test_a_vote_outlives_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "votes.db")
    store = await Storage.open(path)
    world = World(LiveServices(store, Users(store, ("en",)),
                           scheduler=APSchedulerJobs(AsyncIOScheduler())))
    ann, bob, cid = await world.users(3)
    await world.table("preferans", [ann, bob, cid])
    vote = asked(await pausing.request(world.svc, -100, 0, ann, True)).vote
    await press(world, bob, vote.id, "y")
    await store.close()
    store = await Storage.open(path)  # the process starts again
    try:
        again = World(LiveServices(store, Users(store, ("en",)),
                               scheduler=APSchedulerJobs(AsyncIOScheduler())))
        await loading.restore(again.svc)
        out = await press(again, cid, vote.id, "y")
        assert out.note == "agreed" and any(isinstance(e, events.Paused) for e in out.events)
        assert again.svc.tables.values()[0].status == "paused"
    finally:
        await store.close()
