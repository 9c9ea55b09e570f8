"""A worker's looks of the tables for the Mini App (bot/webapp/relay.py): read from storage,
kept until the table changes, a change read once however many streams ask, and only so
many kept."""

from __future__ import annotations

import asyncio
import random

from bot.service.outcome import Outcome
from bot.webapp.relay import Looks
from bot.webapp.watch import Watch
from tests.service.conftest import World


async def test_a_look_is_the_stored_table_until_it_changes(world: World) -> None:
    table = await world.table("preferans", await world.users(3))
    assert table.match is not None
    watch = Watch()
    looks = Looks(world.svc, watch, most=1)
    first = await looks.table(table.id)
    assert first is not None and first is not table  # read from storage, not the live one
    assert first.match is not None and first.match.version == table.match.version
    assert await looks.table(table.id) is first  # kept

    async for _ in world.play(table, random.Random(3),
                              until=lambda: table.match.version >= first.match.version + 2):
        pass
    assert (await looks.table(table.id)) is first  # nobody said it changed
    watch.published(Outcome().redraw(table))
    again = await asyncio.gather(*(looks.table(table.id) for _ in range(5)))
    assert all(look is again[0] for look in again) and again[0] is not first  # read once
    assert again[0].match is not None and again[0].match.version == table.match.version

    other = await world.table("seep", await world.users(4), chat=-200)
    assert await looks.table(other.id) is not None
    assert list(looks._kept) == [other.id]  # at most one kept: the least recently read went
    assert await looks.table(10**9) is None  # no such table
