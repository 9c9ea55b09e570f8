"""Running the real bot (PTB Application, storage, services) against the fake Bot API server."""

from __future__ import annotations

import contextlib
import functools
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.app import build_application, start, stop
from bot.config import load_settings
from bot.service import loading
from bot.telegram.context import BotData
from storage.store import is_postgres
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.model import Chat


def settings_env(tg: FakeTelegram, db: Path | str, **extra: str) -> dict[str, str]:
    """The bot's settings; ``db``: a SQLite file, or a PostgreSQL URL."""
    where = "DATABASE_URL" if is_postgres(str(db)) else "DATABASE_PATH"
    return {"BOT_TOKEN": tg.token, where: str(db),
            "TELEGRAM_API_BASE_URL": tg.base_url, "TELEGRAM_API_BASE_FILE_URL": tg.base_file_url,
            **extra}


@contextlib.asynccontextmanager
async def running_bot(tg: FakeTelegram, db: Path | str, *, touch: bool = True,
                      **extra: str) -> AsyncIterator[BotData]:
    """The bot as `python -m bot` runs it (polling), in this event loop: its services and
    presenter. Every open table is then touched (loaded as a first press would load it), so
    that the tests can look at ``hub.services.tables`` (``touch`` False: only those start-up
    loads). The deals (and first dealers) come from a seed of the test's own name, so that
    each test sees the same deals in every run."""
    settings = replace(load_settings(settings_env(tg, db, **extra)),
                       window_speed=tg.window_speed)
    app = build_application(settings)
    await app.initialize()
    svc = await start(app)
    svc.seed = functools.partial(
        random.Random(os.environ.get("PYTEST_CURRENT_TEST", "")).getrandbits, 64)
    for row in await svc.store.tables.open_tables() if touch else []:
        await loading.table(svc, row.id)
    hub = app.bot_data
    assert hub.presenter is not None
    outbox = hub.presenter.outbox
    unwatch = tg.watch(lambda: not app.update_queue.empty()
                       or app.update_processor.current_concurrent_updates > 0
                       or outbox.busy or svc.timers.busy)
    unwatch_chats = tg.watch_chats(outbox.holds)
    await app.updater.start_polling(poll_interval=0, timeout=1)
    await app.start()
    try:
        yield hub
    finally:
        await app.updater.stop()
        await app.stop()
        await stop(app)
        await app.shutdown()
        unwatch()
        unwatch_chats()


@dataclass
class Table:
    """A group with players, and helpers to drive a game through its buttons."""

    tg: FakeTelegram
    group: Chat
    players: list[User]
    log: list[str] = field(default_factory=list)

    def panel(self, user: User) -> Message:
        return self.tg.last_message(user)

    def table_message(self) -> Message:
        return self.tg.last_message(self.group)

    def buttons(self, user: User) -> list[dict[str, Any]]:
        try:
            message = self.panel(user)
        except LookupError:
            return []
        return [b for b in message.buttons if "callback_data" in b]

    def to_act(self) -> list[User]:
        return acting(self.tg, self.players)


async def open_table(tg: FakeTelegram, group: Chat, players: list[User], *,
                     options: dict[str, int] | None = None, game: str = "preferans") -> Message:
    """Every player starts the bot, the first opens a table of ``game``, the others join;
    the creator presses each option button the given number of times. Returns the lobby."""
    for user in players:
        tg.press_start(user)
    await tg.idle()
    tg.send(players[0], group, f"/newgame {game}")
    await tg.idle()
    for label, times in (options or {}).items():
        for _ in range(times):
            await tg.settled(group)
            lobby = tg.last_message(group)
            button = next(b for b in lobby.buttons if b["text"].startswith(label))
            await tg.press(players[0], lobby, data=button["callback_data"])
            await tg.settled(group)
    for user in players[1:]:
        answer = await tg.press(user, tg.last_message(group), text="✋ Join")
        assert not answer.show_alert, answer.text
        await tg.settled(group)
    await tg.settled(group)
    return tg.last_message(group)


async def toggle_conventions(tg: FakeTelegram, group: Chat, user: User,
                             labels: tuple[str, ...]) -> None:
    """On the lobby's conventions page ``user`` presses the option whose button starts
    with each label once, then goes back to the first page."""
    await tg.press(user, tg.last_message(group), text="⚙ Conventions")
    await tg.settled(group)
    for label in labels:
        lobby = tg.last_message(group)
        button = next(b for b in lobby.buttons if b["text"].startswith(label))
        await tg.press(user, lobby, data=button["callback_data"])
        await tg.settled(group)
    await tg.press(user, tg.last_message(group), text="« Back")
    await tg.settled(group)


async def started_game(tg: FakeTelegram, names: tuple[str, ...] = ("Ann", "Bob", "Cid"),
                       ) -> tuple[list[User], Chat]:
    """Users of these names in a group "Cards" where they have opened a Preferans table
    and started the game (the bot must be running)."""
    users = [tg.add_user(n) for n in names]
    group = tg.add_group("Cards", users)
    await open_table(tg, group, users)
    await tg.press(users[0], tg.last_message(group), text="▶ Start")
    await tg.idle()
    return users, group


async def act(tg: FakeTelegram, user: User, action: str) -> None:
    """Press the buttons of ``user``'s panel that make ``action`` (a discard is two card
    taps and a confirmation); fails if the bot refuses."""
    steps = action.removeprefix("discard:").split(",") if action.startswith("discard:") else []
    for card in steps:
        panel = tg.last_message(user)
        button = next(b for b in panel.buttons if b.get("callback_data", "").endswith(":" + card)
                      and b["callback_data"].startswith("u:"))
        answer = await tg.press(user, panel, data=button["callback_data"])
        assert not answer.show_alert, answer.text
        await tg.idle()
    panel = tg.last_message(user)
    wanted = [b for b in panel.buttons if b.get("callback_data", "").startswith("a:")
              and b["callback_data"].split(":", 4)[4] in _spellings(action)]
    assert len(wanted) == 1, (action, [b.get("callback_data") for b in panel.buttons])
    answer = await tg.press(user, panel, data=wanted[0]["callback_data"])
    assert not answer.show_alert, answer.text
    await tg.idle()


def _spellings(action: str) -> set[str]:
    if action.startswith("discard:"):
        a, b = action.removeprefix("discard:").split(",")
        return {f"discard:{a},{b}", f"discard:{b},{a}"}
    return {action}


PLAYABLE = ("a:", "u:")  # an action's button, a UI step's


def playable(message: Message) -> list[str]:
    """The data of the message's buttons that act or step."""
    return [data for b in message.buttons
            if (data := b.get("callback_data", "")).startswith(PLAYABLE)]


def panel_of(tg: FakeTelegram, user: User) -> Message | None:
    """The user's panel: the latest message in his chat with actions or steps (a reply the
    bot sent later, such as a late answer to his /start, may stand below it)."""
    return next((m for m in reversed(tg.messages(user)) if not m.deleted and playable(m)),
                None)


def _moves(tg: FakeTelegram, user: User) -> list[str]:
    """The actions and steps on the user's panel."""
    panel = panel_of(tg, user)
    return [] if panel is None else playable(panel)


def acting(tg: FakeTelegram, players: list[User]) -> list[User]:
    """The players whose panels show the table's latest actions: those who act now (a panel
    whose buttons went with its player's action may show them until the round is complete;
    their state version is older)."""
    versions = {u.id: max((int(d.split(":")[2]) for d in _moves(tg, u)), default=-1)
                for u in players}
    latest = max(versions.values(), default=-1)
    return [u for u in players if latest >= 0 and versions[u.id] == latest]


async def press_first(tg: FakeTelegram, players: list[User], *,
                      settle: Callable[[], Awaitable[object]] | None = None) -> bool:
    """Whoever acts now (``acting``) presses the first action (a discard: the first two
    cards, then the confirmation); False when nobody has anything to press. ``settle`` waits
    after each press until the bot is done with it (default: ``tg.idle``)."""
    settle = settle or tg.idle
    for user in acting(tg, players):
        panel = panel_of(tg, user)
        assert panel is not None
        data = [b["callback_data"] for b in panel.buttons if "callback_data" in b]
        actions = [d for d in data if d.startswith("a:")]
        if not actions and any(d.startswith("u:") for d in data):
            picks = [d for d in data if d.startswith("u:")][:2]
            for pick in picks:
                answer = await tg.press(user, panel, data=pick)
                assert not answer.show_alert, answer.text
                await settle()
                panel = panel_of(tg, user)
                assert panel is not None
            actions = [b["callback_data"] for b in panel.buttons
                       if b.get("callback_data", "").startswith("a:")]
        if actions:
            answer = await tg.press(user, panel, data=actions[0])
            assert not answer.show_alert, answer.text
            await settle()
            return True
    return False

