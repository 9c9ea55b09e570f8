"""Flood control: sliding-window limits per chat and overall, answering 429."""

from __future__ import annotations

import math
from collections import defaultdict, deque
from dataclasses import dataclass, field, replace

SENDS = frozenset({"sendMessage", "sendDocument", "sendPhoto"})
EDITS = frozenset({"editMessageText", "editMessageCaption", "editMessageReplyMarkup"})


@dataclass(frozen=True)
class Limit:
    """At most `count` of `methods` in any `period` seconds."""

    count: int
    period: float
    methods: frozenset[str] = SENDS | EDITS


@dataclass(frozen=True)
class FloodLimits:
    """The limits applied; None switches one off. Defaults follow Telegram's figures:
    about one message or edit a second per private chat with a burst of 3, 20 messages and
    edits a minute per group, 30 a second overall (edits count like sends: Telegram staff
    on tdlib/td#2592)."""

    private_chat: Limit | None = Limit(3, 3.0)
    group_chat: Limit | None = Limit(20, 60.0)
    overall: Limit | None = Limit(30, 1.0)
    speed: float = 1.0  # how many times faster the chats' windows pass than Telegram's

    @classmethod
    def off(cls) -> FloodLimits:
        return cls(None, None, None)

    @classmethod
    def sped_up(cls, speed: float) -> FloodLimits:
        """Telegram's limits under a clock ``speed`` times faster for the chats: 20 calls in
        a group's 60/speed seconds, 3 in a private chat's 3/speed seconds (the bot's budgets
        follow it, ``FakeTelegram.window_speed``); the 30 calls a second overall stay."""
        real = cls()
        assert real.private_chat is not None and real.group_chat is not None
        return cls(private_chat=replace(real.private_chat, period=real.private_chat.period / speed),
                   group_chat=replace(real.group_chat, period=real.group_chat.period / speed),
                   speed=speed)


@dataclass
class FloodControl:
    limits: FloodLimits
    refused: int = 0  # calls answered 429 by these limits (a forced 429 is not counted)
    _windows: dict[object, deque[float]] = field(default_factory=lambda: defaultdict(deque))

    def _applicable(
        self, method: str, chat_id: int | None, is_group: bool
    ) -> list[tuple[object, Limit]]:
        chat_limit = self.limits.group_chat if is_group else self.limits.private_chat
        scoped: list[tuple[object, Limit | None]] = [("overall", self.limits.overall)]
        if chat_id is not None:
            scoped.append((chat_id, chat_limit))
        return [(key, limit) for key, limit in scoped if limit and method in limit.methods]

    def retry_after(self, method: str, chat_id: int | None, is_group: bool, now: float) -> int:
        """Seconds to wait before this call may go through (0: it may go now)."""
        wait = 0.0
        for key, limit in self._applicable(method, chat_id, is_group):
            window = self._windows[key]
            while window and window[0] <= now - limit.period:
                window.popleft()
            if len(window) >= limit.count:
                wait = max(wait, window[len(window) - limit.count] + limit.period - now)
        return math.ceil(wait) if wait > 0 else 0

    def record(self, method: str, chat_id: int | None, is_group: bool, now: float) -> None:
        for key, _ in self._applicable(method, chat_id, is_group):
            self._windows[key].append(now)
