"""A clock ``speed`` times faster for this process, for the bench's thoughtful paces: an action
every 30 s takes 1 s of the bench's time.

Everything that reads the time reads it faster (``time.monotonic``, ``time.time``, the event
loop's clock: the bot's budgets and timers, the fake Bot API's flood windows and its clock), and
the event loop waits that much less for it. What is not sped up is the work itself: a press the
bot handles in 30 ms real time takes 0.9 s of the fast clock at 30 times, and a Bot API call as
many times longer, so a sped-up pace is, if anything, harder on the bot than the real one (the
HTTP client's timeouts, the fake's waits and the 15 s in which Telegram takes a press's answer
are stretched by the speed, so that nothing is given up sooner in real time: a loaded machine
once let a press's answer come after the one real second that 15 s were at 15 times). The
figures count calls, which do not depend on how fast the clock runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import selectors
import time
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

from bot.telegram import application
from tests.fakebot import FakeTelegram

T = TypeVar("T")
# PTB's HTTP timeouts (seconds) where the bot does not set them
TIMEOUTS = {"read_timeout": 5.0, "write_timeout": 5.0, "connect_timeout": 5.0, "pool_timeout": 1.0}


class _Selector:
    """The loop's selector, waiting ``speed`` times less (the loop's clock runs faster)."""

    def __init__(self, inner: selectors.BaseSelector, speed: float) -> None:
        self._inner, self._speed = inner, speed

    def select(self, timeout: float | None = None) -> list[Any]:
        return self._inner.select(None if timeout is None else timeout / self._speed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextlib.contextmanager
def _faster_time(speed: float) -> Iterator[None]:
    real_monotonic, real_time, request = time.monotonic, time.time, application.MeteredRequest
    start_monotonic, start_time = real_monotonic(), real_time()

    class Stretched(request):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            for name, default in TIMEOUTS.items():
                kwargs[name] = kwargs.get(name, default) * speed
            super().__init__(*args, **kwargs)

    waits = {name: dict(method.__kwdefaults__) for name, method in vars(FakeTelegram).items()
             if {"timeout", "callback_timeout"} & set(getattr(method, "__kwdefaults__", None)
                                                      or {})}
    for name, defaults in waits.items():
        for key in {"timeout", "callback_timeout"} & set(defaults):
            getattr(FakeTelegram, name).__kwdefaults__[key] = defaults[key] * speed

    time.monotonic = lambda: start_monotonic + (real_monotonic() - start_monotonic) * speed
    time.time = lambda: start_time + (real_time() - start_time) * speed
    application.MeteredRequest = Stretched  # type: ignore[misc]
    try:
        yield
    finally:
        time.monotonic, time.time = real_monotonic, real_time
        application.MeteredRequest = request  # type: ignore[misc]
        for name, defaults in waits.items():
            getattr(FakeTelegram, name).__kwdefaults__.update(defaults)


def run(coroutine: Coroutine[Any, Any, T], speed: float = 1.0) -> T:
    """``asyncio.run``, on a clock ``speed`` times faster."""
    if speed == 1.0:
        return asyncio.run(coroutine)

    def loop() -> asyncio.AbstractEventLoop:
        made = asyncio.SelectorEventLoop()
        made._selector = _Selector(made._selector, speed)  # type: ignore[attr-defined]
        return made

    with _faster_time(speed), asyncio.Runner(loop_factory=loop) as runner:
        return runner.run(coroutine)
