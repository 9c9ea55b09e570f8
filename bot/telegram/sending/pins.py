"""Where the bot may not pin: learned from Telegram's refusal of a pin, kept in storage (a
mark per group), so that no process and no restart tries a futile pin there again; forgotten
when the bot is made an administrator of the group (it may be allowed to pin then)."""

from __future__ import annotations

from storage.marks import MarkStore


class PinRights:
    def __init__(self, marks: MarkStore) -> None:
        self.marks = marks
        self.refused: set[int] = set()  # groups known to refuse, this process's memory
        self.asked: set[int] = set()  # groups whose mark was read

    @staticmethod
    def _key(chat_id: int) -> str:
        return f"cannot_pin:{chat_id}"

    async def may_pin(self, chat_id: int) -> bool:
        if chat_id not in self.asked:
            self.asked.add(chat_id)
            if await self.marks.get(self._key(chat_id)) is not None:
                self.refused.add(chat_id)
        return chat_id not in self.refused

    async def refuse(self, chat_id: int) -> None:
        """Telegram refused a pin in the group."""
        self.refused.add(chat_id)
        await self.marks.put(self._key(chat_id), "refused")

    async def grant(self, chat_id: int) -> None:
        """The bot's rights in the group changed: try pinning there again."""
        self.refused.discard(chat_id)
        await self.marks.drop(self._key(chat_id))
