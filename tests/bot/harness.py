"""Running the real bot (PTB Application, storage, hub) against the fake Bot API server."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import build_application, start_hub, stop_hub
from bot.config import load_settings
from bot.hub import Hub
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.model import Chat


def settings_env(tg: FakeTelegram, db: Path, **extra: str) -> dict[str, str]:
    return {"BOT_TOKEN": tg.token, "DATABASE_PATH": str(db),
            "TELEGRAM_API_BASE_URL": tg.base_url, "TELEGRAM_API_BASE_FILE_URL": tg.base_file_url,
            "GROUP_MESSAGES_PER_MINUTE": "1000", **extra}


@contextlib.asynccontextmanager
async def running_bot(tg: FakeTelegram, db: Path, **extra: str) -> AsyncIterator[Hub]:
    """The bot as `python -m bot` runs it (polling), in this event loop."""
    app = build_application(load_settings(settings_env(tg, db, **extra)))
    await app.initialize()
    hub = await start_hub(app)
    unwatch = tg.watch(lambda: not app.update_queue.empty()
                       or app.update_processor.current_concurrent_updates > 0
                       or hub.outbox.busy)
    await app.updater.start_polling(poll_interval=0, timeout=1)
    await app.start()
    try:
        yield hub
    finally:
        await app.updater.stop()
        await app.stop()
        await stop_hub(app)
        await app.shutdown()
        unwatch()


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
        return [u for u in self.players if self.buttons(u)]
