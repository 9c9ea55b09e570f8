"""A language changed through one worker is the one another worker writes in (users' rows and
groups' languages are cached per process: in worker mode each unit of work reads those it uses
anew). Two workers in this process, on one PostgreSQL database, each doing one update at a
time when the test says so (as in test_handover.py)."""

from __future__ import annotations

import re
import time

from bot.app import new_worker, stop
from bot.config import load_settings
from bot.telegram.receiver import secret_of
from bot.telegram.worker import DEAD_AFTER, Worker
from tests.bot.harness import settings_env
from tests.bot.test_handover import _do_next, _press, _pumping, _receiving
from tests.bot.test_workers import Played, _open
from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer

CYRILLIC = re.compile("[А-Яа-я]")


async def _freeze(worker: Worker) -> None:
    """The worker stops beating (long ago): its lanes are anyone's."""
    async with worker.db.pool.acquire() as raw:
        await raw.execute("UPDATE workers SET seen_at = $1 WHERE id = $2",
                          time.time() - 2 * DEAD_AFTER, worker.id)


async def test_a_language_set_through_one_worker_is_written_by_another(
        tg: FakeTelegram, postgres: LazyServer) -> None:
    url = await postgres.new_database()
    settings = load_settings(settings_env(tg, url, WEBHOOK_URL="http://127.0.0.1/hook"))
    users = [tg.add_user(f"p{i}") for i in range(3)]
    played = Played("preferans", tg.add_group("preferans", users), users)
    a = await new_worker(settings, name="a")
    b = await new_worker(settings, name="b")
    unwatch = [tg.watch_chats(w.presenter.outbox.holds) for w in (a, b)]
    try:
        async with _receiving(a, url, secret_of(settings)):
            for worker in (a, b):
                await worker.beat()
            for user in users:
                tg.press_start(user)
            async with _pumping(a):
                await _open(tg, played)
                await tg.settled()
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
    finally:
        for undo in unwatch:
            undo()
        for worker in (a, b):
            await stop(worker.app)
            await worker.app.shutdown()


async def test_a_group_language_set_through_one_worker_is_written_by_another(
        tg: FakeTelegram, postgres: LazyServer) -> None:
    url = await postgres.new_database()
    settings = load_settings(settings_env(tg, url, WEBHOOK_URL="http://127.0.0.1/hook"))
    users = [tg.add_user(f"p{i}") for i in range(3)]
    played = Played("preferans", tg.add_group("preferans", users), users)
    a = await new_worker(settings, name="a")
    b = await new_worker(settings, name="b")
    unwatch = [tg.watch_chats(w.presenter.outbox.holds) for w in (a, b)]
    try:
        async with _receiving(a, url, secret_of(settings)):
            for worker in (a, b):
                await worker.beat()
            for user in users:
                tg.press_start(user)
            async with _pumping(a):
                await _open(tg, played)
                await tg.settled()
            await _freeze(a)  # B takes the group's lane over and switches it to Russian
            tg.send(users[0], played.group, "/language ru")
            await _do_next(tg, b)
            await tg.settled(played.group)
            assert CYRILLIC.search(tg.last_message(played.group).text)
            await _freeze(b)  # A takes it back: a press
            await a.beat()
            await _press(tg, played, a)
            await tg.settled()
            row = (await a.svc.store.tables.open_tables())[0]
            shown = next(m for m in tg.messages(played.group)
                         if m.message_id == row.table_message_id)
            assert CYRILLIC.search(shown.text), shown.text
    finally:
        for undo in unwatch:
            undo()
        for worker in (a, b):
            await stop(worker.app)
            await worker.app.shutdown()
