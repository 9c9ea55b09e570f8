"""Who is a member of a chat, asked of Telegram (``getChatMember``) and remembered a while:
the Mini App shows a table only to the members of its chat (``bot.service.ports.Members``)."""

from __future__ import annotations

import logging
import time

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

log = logging.getLogger(__name__)

KEEP = 300.0  # seconds a "member" is remembered
KEEP_OUT = 60.0  # and a "not a member" (who joins the group is let in a minute later at most)
KEPT = 10_000  # answers remembered at most (the oldest go first)
IN = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


class ChatMembers:
    def __init__(self, bot: Bot, keep: float = KEEP) -> None:
        self.bot, self.keep = bot, keep
        self.known: dict[tuple[int, int], tuple[float, bool]] = {}  # -> until, member
        self.asked = 0

    async def __call__(self, chat_id: int, user_id: int) -> bool:
        now = time.monotonic()
        known = self.known.get((chat_id, user_id))
        if known is not None and known[0] > now:
            return known[1]
        self.asked += 1
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except (BadRequest, Forbidden):  # no such user there, or the bot is not there itself
            found = False
        except TelegramError as exc:  # Telegram cannot say now: no, and ask again next time
            log.warning("getChatMember %s/%s failed: %s", chat_id, user_id, exc)
            return False
        else:
            found = member.status in IN or bool(getattr(member, "is_member", False))
        if len(self.known) >= KEPT:
            self.known = {k: v for k, v in self.known.items() if v[0] > now}
            while len(self.known) >= KEPT:
                del self.known[next(iter(self.known))]
        self.known[(chat_id, user_id)] = (now + (self.keep if found else KEEP_OUT), found)
        return found
