"""When the bot's calls a second over all chats run short, they wait in one line
(bot/telegram/sending/gate.py): by rank (an acting player's buttons, then one-off messages, the
groups' table messages, the waiting players' panels), then newest first, but a call that has
waited too long before the newer ones."""

from __future__ import annotations

import asyncio
import time

from bot.telegram.sending.gate import OVERDUE, Gate, Rank, Standing
from bot.telegram.sending.limits import Window

PERIOD = 0.2  # seconds: the window of these tests' calls


def _gate(limit: int, *, answered: int, in_flight: int = 0) -> Gate:
    """A gate whose window holds ``answered`` calls answered just now (they leave it in
    ``PERIOD`` seconds) and ``in_flight`` calls not answered (they stay)."""
    window = Window(limit, PERIOD)
    for _ in range(in_flight):
        window.record()
    for _ in range(answered):
        window.record()[0] = time.monotonic()
    return Gate(window)


async def _served(gate: Gate, standings: dict[str, tuple[Rank, float]], *,
                  change: dict[str, tuple[Rank, float]] | None = None) -> list[str]:
    """The order in which the calls get their places once the window frees (``change``: their
    standings change while they wait); those still waiting then give up."""
    served: list[str] = []

    async def wait(name: str) -> None:
        standing: Standing = lambda: standings[name]  # noqa: E731 (read at each look)
        await gate.place(standing)
        served.append(name)

    tasks = [asyncio.create_task(wait(name)) for name in standings]
    await asyncio.sleep(PERIOD / 4)
    assert served == []  # the window is full: everyone waits
    standings.update(change or {})
    await asyncio.sleep(PERIOD * 1.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert not gate._line  # those who gave up left the line
    return served


async def test_a_busy_second_keeps_room_for_the_acting_players_buttons() -> None:
    # 12 of 16 calls in the window: a panel may fill 10, a group's table 12, a message 14
    gate = _gate(16, answered=3, in_flight=9)
    now = time.monotonic()
    for rank in (Rank.BUTTONS, Rank.MESSAGE):  # at once: 14 of 16 then
        assert await asyncio.wait_for(gate.place(lambda r=rank: (r, now)), PERIOD) is not None
    # three calls leave the window: 11 in it, room for a table's edit, not for a panel
    served = await _served(gate, {"panel": (Rank.PANEL, now), "table": (Rank.TABLE, now)})
    assert served == ["table"]


async def test_the_line_goes_by_rank_then_newest_first_and_the_overdue_before_them() -> None:
    gate = _gate(4, answered=4)  # four places free at once, and the four placed stay
    now = time.monotonic()
    standings = {"old turn": (Rank.BUTTONS, now - 3), "new turn": (Rank.BUTTONS, now - 1),
                 "result": (Rank.MESSAGE, now), "table": (Rank.TABLE, now),
                 "overdue turn": (Rank.BUTTONS, now - OVERDUE - 1)}
    assert await _served(gate, standings) == [
        "overdue turn", "new turn", "old turn", "result"]


async def test_a_waiting_panel_that_becomes_its_players_turn_goes_first() -> None:
    gate = _gate(2, answered=1, in_flight=1)  # one place frees
    now = time.monotonic()
    served = await _served(gate, {"panel": (Rank.PANEL, now - 2), "table": (Rank.TABLE, now)},
                           change={"panel": (Rank.BUTTONS, now)})  # his table moved: his turn
    assert served == ["panel"]


async def test_a_woken_chat_leaves_the_line_and_lets_those_behind_it_go() -> None:
    gate = _gate(8, answered=0, in_flight=6)  # a message may fill 7 of 8, a table 6
    now = time.monotonic()
    wake = asyncio.Event()
    blocked = asyncio.create_task(gate.place(lambda: (Rank.TABLE, now), wake))
    await asyncio.sleep(0.01)
    assert not blocked.done()
    wake.set()  # e.g. a result queued in that group: it goes before the table's edit
    assert await asyncio.wait_for(blocked, PERIOD) is None
    assert await asyncio.wait_for(gate.place(lambda: (Rank.MESSAGE, now)), PERIOD) is not None
    assert not gate._line
