"""What the bot does when a chat no longer takes its messages: the use case runs, and its
outcome is shown like any other (the outbox's ``Troubles``)."""

from __future__ import annotations

from collections.abc import Callable

from telegram.error import Forbidden

from bot.service import chats
from bot.service.outcome import Outcome
from bot.service.ports import Services
from bot.telegram.sending.ports import Troubles


class Reactions(Troubles):
    def __init__(self, svc: Services, show: Callable[[Outcome], None]) -> None:
        self.svc = svc
        self.show = show

    async def forbidden(self, chat_id: int, error: Forbidden) -> None:
        self.show(await chats.forbidden(self.svc, chat_id))

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        self.show(await chats.move_chat(self.svc, old_chat_id, new_chat_id))
