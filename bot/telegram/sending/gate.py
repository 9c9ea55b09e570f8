"""The calls a second over all chats when they run short (many tables on one token): the
chats' calls wait in one line and each place that frees in the window goes to the first of
the line. First by rank (``Rank``: an acting player's buttons, then one-off messages, the
groups' table messages, the waiting players' panels; each rank may fill the window only up to
its ``share``, so that room is always left to those before it), then newest first: a player
whose turn waits while his table moves on sees the newer moment instead (his turn is folded
into the next), so that the turns shown come soon rather than every turn late. A call that
has waited ``OVERDUE`` seconds goes before the newer ones of its rank, oldest first: where the
players wait for their buttons before they act (no newer turn comes), no table freezes while
the others play."""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.telegram.sending.limits import Window

OVERDUE = 6.0  # seconds after which a waiting call goes before the newer ones of its rank


class Rank(enum.IntEnum):
    """What a call is, in the order the calls a second over all chats serve them when they run
    short (a press's answer, which Telegram does not count, goes before all of them)."""

    BUTTONS = 0  # a panel whose buttons come or change: its player acts
    MESSAGE = 1  # a one-off message: a result, a reply, a vote
    TABLE = 2  # a group's table message
    PANEL = 3  # a waiting player's panel (its buttons that went included)


def share(limit: int, rank: Rank) -> int:
    """How many of the window's ``limit`` calls a call of this rank may fill: each rank leaves
    an eighth of the window more to those before it, so that a flood of waiting panels never
    makes an acting player's buttons wait."""
    return max(1, limit - limit * rank // 8)


Standing = Callable[[], tuple[Rank, float]]  # a waiting call's rank and since (they change)


@dataclass(eq=False)
class _Waiter:
    standing: Standing  # its rank, and the time.monotonic() of what it shows (newer: sooner)
    place: asyncio.Future[list[float]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())

    def key(self, now: float) -> tuple[int, int, float]:
        rank, since = self.standing()
        if now - since >= OVERDUE:
            return rank, 0, since
        return rank, 1, -since


class Gate:
    """The line of the calls that wait for the window (this process's calls a second)."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self._line: list[_Waiter] = []
        self._timer: asyncio.TimerHandle | None = None

    async def place(self, standing: Standing,
                    wake: asyncio.Event | None = None) -> list[float] | None:
        """A place for one call in the window, counted (``Window.record``: the caller sets it
        when the call is answered), once the call is the first of the line (its ``standing``,
        asked again each time a place frees: a waiting panel may become its player's turn)
        and the window has room for its rank; None if ``wake`` is set first (the chat has
        something else to send that may go first)."""
        if not self._line and self.window.delay(share(self.window.limit, standing()[0])) <= 0:
            return self.window.record()
        waiter = _Waiter(standing)
        self._line.append(waiter)
        self._serve()
        waking = asyncio.ensure_future(wake.wait()) if wake is not None else None
        try:
            await asyncio.wait({waiter.place, *([waking] if waking else [])},
                               return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # the chat's task stopped
            if waiter.place.done():
                waiter.place.result()[0] = time.monotonic()  # counted as made now
            else:
                self._leave(waiter)
            raise
        finally:
            if waking is not None:
                waking.cancel()
        if not waiter.place.done():
            self._leave(waiter)
            return None
        return waiter.place.result()

    def _leave(self, waiter: _Waiter) -> None:
        self._line.remove(waiter)
        waiter.place.cancel()
        self._serve()  # it may have held back those behind it

    def _serve(self) -> None:
        """Give the window's room to the first of the line while it has room for them; then
        look again when it will have (the window frees as its calls age)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = time.monotonic()
        keys = {waiter: waiter.key(now) for waiter in self._line}
        for first in sorted(self._line, key=keys.__getitem__):
            delay = self.window.delay(share(self.window.limit, Rank(keys[first][0])))
            if delay > 0:
                self._timer = asyncio.get_running_loop().call_later(delay, self._serve)
                return
            self._line.remove(first)
            first.place.set_result(self.window.record())
