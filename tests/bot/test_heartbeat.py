"""A worker beats each second while adopting the dead workers' lanes takes long (a stuck
adoption once stopped its beats for 11 s: the others took it for dead and took its share of
the calls a second while it still sent, and Telegram answered 429)."""

from __future__ import annotations

import asyncio

from bot.telegram.heartbeat import beating

EVERY = 0.05


async def test_beats_go_on_while_tending_is_slow() -> None:
    beats = 0
    tended = 0
    enough = asyncio.Event()
    never = asyncio.Event()  # an adoption that does not end while the worker lives

    async def beat() -> None:
        nonlocal beats
        beats += 1
        if beats == 10:
            enough.set()

    async def tend() -> None:
        nonlocal tended
        tended += 1
        await never.wait()

    stopping = asyncio.Event()
    task = asyncio.create_task(beating(beat, tend, stopping, every=EVERY))
    await asyncio.wait_for(enough.wait(), 30)
    stopping.set()
    await asyncio.wait_for(task, 30)
    assert tended == 1  # not started again while under way, and no beat waited for it


async def test_tending_follows_each_beat_once_done() -> None:
    tended = 0
    stopping = asyncio.Event()

    async def beat() -> None:
        pass

    async def tend() -> None:
        nonlocal tended
        tended += 1
        if tended == 3:
            stopping.set()

    await asyncio.wait_for(beating(beat, tend, stopping, every=EVERY), 30)
    assert tended == 3
