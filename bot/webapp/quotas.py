"""What one user may take of the Mini App's server: event streams (per user and in all) and
scoresheet pictures (drawn at most once per table, version and language, one at a time,
and a user's next only after ``PICTURE_EVERY`` seconds unless it is drawn already)."""

from __future__ import annotations

import asyncio
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

PICTURE_EVERY = 2.0  # seconds between pictures drawn for one user
PICTURES_KEPT = 64  # pictures cached (a sheet is some tens of kilobytes)


class Refused(Exception):
    """Over a quota: the refusal's code and the HTTP status it gets (429, or 503 if the
    whole server is at its cap)."""

    def __init__(self, code: str, status: int) -> None:
        super().__init__(code)
        self.code, self.status = code, status


class Streams:
    """Live event streams by user, within a cap per user and one for the process."""

    def __init__(self, cap: int, per_user: int) -> None:
        self.cap, self.per_user = cap, per_user
        self.by_user: Counter[int] = Counter()
        self.total = 0

    @contextmanager
    def held(self, user_id: int) -> Iterator[None]:
        if self.total >= self.cap:
            raise Refused("server_busy", 503)
        if self.by_user[user_id] >= self.per_user:
            raise Refused("too_many_streams", 429)
        self.total += 1
        self.by_user[user_id] += 1
        try:
            yield
        finally:
            self.total -= 1
            self.by_user[user_id] -= 1
            if not self.by_user[user_id]:
                del self.by_user[user_id]


Key = tuple[int, int, str]  # table, version, language


class Pictures:
    """Scoresheet pictures, cached by table version and language, drawn one at a time."""

    def __init__(self, every: float = PICTURE_EVERY, kept: int = PICTURES_KEPT) -> None:
        self.every, self.kept = every, kept
        self.cache: OrderedDict[Key, bytes] = OrderedDict()
        self.last: dict[int, float] = {}  # user -> when his last picture was drawn
        self.drawing = asyncio.Lock()
        self.drawn = 0

    async def get(self, user_id: int, key: Key, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        """The picture of ``key``: cached, or drawn now if the user may have one drawn."""
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        now = time.monotonic()
        if now - self.last.get(user_id, -self.every) < self.every:
            raise Refused("too_fast", 429)
        if len(self.last) > PICTURES_KEPT * 16:
            self.last = {u: t for u, t in self.last.items() if now - t < self.every}
        self.last[user_id] = now
        async with self.drawing:
            if key not in self.cache:  # drawn for another meanwhile
                self.cache[key] = await draw()
                self.drawn += 1
                while len(self.cache) > self.kept:
                    self.cache.popitem(last=False)
        return self.cache[key]
