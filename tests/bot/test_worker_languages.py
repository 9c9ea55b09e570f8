"""A language changed through one worker is the one another worker writes in (users' rows and
groups' languages are cached per process: in worker mode each unit of work reads those it uses
anew). Two workers in this process, on one PostgreSQL database, each doing one update at a
time when the test says so (as in test_handover.py)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator

from bot.telegram.worker import Worker
from tests.bot.test_handover import _do_next, _press, freeze, open_with, two_workers
from tests.bot.test_workers import Played
from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer

CYRILLIC = re.compile("[А-Яа-я]")


@contextlib.asynccontextmanager
async def opened(tg: FakeTelegram,
                 postgres: LazyServer) -> AsyncIterator[tuple[Played, Worker, Worker]]:
    """A Preferans table of three opened through worker A of two: the table, A and B."""
    users = [tg.add_user(f"p{i}") for i in range(3)]
    played = Played("preferans", tg.add_group("preferans", users), users)
    async with two_workers(tg, await postgres.new_database()) as (a, b):
        await open_with(tg, played, a)
        yield played, a, b


async def test_a_language_set_through_one_worker_is_written_by_another(
        tg: FakeTelegram, postgres: LazyServer) -> None:
    async with opened(tg, postgres) as (played, a, b):
        users = played.users
        panels = [tg.last_message(user) for user in users]  # edited in place
        assert not any(CYRILLIC.search(p.text) for p in panels)  # A drew them in English
        tg.send(users[1], users[1], "/language ru")  # a private chat's lane: B does it
        await _do_next(tg, b)
        tg.send(users[2], played.group, "/help")  # the group's lane: A does it
        await _do_next(tg, a)
        await tg.settled()
        before = panels[1].text
        await _press(tg, played, a)  # A redraws the panels
        await tg.settled()
        assert panels[1].text != before  # redrawn
        assert CYRILLIC.search(panels[1].text), panels[1].text
        assert not CYRILLIC.search(panels[0].text)


async def test_a_group_language_set_through_one_worker_is_written_by_another(
        tg: FakeTelegram, postgres: LazyServer) -> None:
    async with opened(tg, postgres) as (played, a, b):
        users = played.users
        await freeze(a)  # B takes the group's lane over and switches it to Russian
        tg.send(users[0], played.group, "/language ru")
        await _do_next(tg, b)
        await tg.settled(played.group)
        assert CYRILLIC.search(tg.last_message(played.group).text)
        await freeze(b)  # A takes it back: a press
        await a.beat()
        await _press(tg, played, a)
        await tg.settled()
        row = (await a.svc.store.tables.open_tables())[0]
        shown = next(m for m in tg.messages(played.group)
                     if m.message_id == row.table_message_id)
        assert CYRILLIC.search(shown.text), shown.text
