"""A keeper entering deals by buttons as fast as he can read them (issue 33.3): the scenario of
``tests/bot/test_keep_taps.py`` and of ``python -m bench --only keep``."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from tests.bot.scorekeeping import Keeping, entry_message
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.flood import EDITS, SENDS

CONTROLS = ("↩ Back", "✖ Clear", "Stop correcting")


@dataclass
class Entered:
    """What entering the deals took: each tap's wait for the next question (s), the refused
    taps, the group's sends and edits meanwhile (each with its moment), when /history was
    sent and answered (the fake's clock), the wall time."""

    waits: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    sends: list[float] = field(default_factory=list)
    edits: list[float] = field(default_factory=list)
    history_sent: float = 0.0
    history_answered: float = 0.0
    seconds: float = 0.0

    @property
    def taps(self) -> int:
        return len(self.waits) + 1


def next_tap(message: Message) -> str:
    """Save when the deal is complete, else the question's first answer (always a legal
    one: the buttons offer only those)."""
    labels = message.button_texts
    return next((t for t in labels if t.startswith("✅ Save")), None) or next(
        t for t in labels if t not in CONTROLS)


async def _changed(keeping: Keeping, seen: tuple[int, int], timeout: float = 10.0) -> float:
    """Wait until the keeper's entry message shows something new (``seen``: its id and its
    count of revisions before the tap); the moment it did. Fails on a freeze."""
    deadline = time.monotonic() + timeout
    while True:
        entry = entry_message(keeping.tg, keeping.user, keeping.table_id)
        assert entry is not None
        if (entry.message_id, len(entry.revisions)) != seen:
            return time.monotonic()
        assert time.monotonic() < deadline, f"the entry froze: {entry.text!r}"
        await asyncio.sleep(0.005)


async def enter_deals(tg: FakeTelegram, keeping: Keeping, deals: int, taps_a_second: float,
                      asker: User) -> Entered:
    """Enter deals until the sheet has ``deals``, tapping as soon as each next question shows
    and never faster than ``taps_a_second``; ``asker`` sends /history in the group once the
    last deal's entry begins (the group's busiest moment)."""
    got, start, since = Entered(), time.monotonic(), len(tg.calls)
    last_tap = 0.0
    while len(keeping.table.match.deals) < deals:
        entry = keeping.message()
        label = next_tap(entry)
        await asyncio.sleep(max(0.0, last_tap + 1 / taps_a_second - time.monotonic()))
        seen = (entry.message_id, len(entry.revisions))
        last_tap = time.monotonic()
        answer = await tg.press(keeping.user, entry, text=label)
        if answer.show_alert:
            got.refused.append(f"{label}: {answer.text}")
        if len(keeping.table.match.deals) == deals:
            break
        got.waits.append(await _changed(keeping, seen) - last_tap)
        if len(keeping.table.match.deals) == deals - 1 and not got.history_sent:
            got.history_sent = tg.world.now()
            tg.send(asker, keeping.group, "/history")
    got.seconds = time.monotonic() - start
    await keeping.settled()
    for call in tg.calls[since:]:
        if call.chat_id != keeping.group.id or call.status != 200:
            continue
        if call.method in SENDS:
            got.sends.append(call.time)
            if (not got.history_answered and call.time > got.history_sent
                    and "Last deals" in str(call.params.get("text", ""))):
                got.history_answered = call.time
        elif call.method in EDITS:
            got.edits.append(call.time)
    return got
