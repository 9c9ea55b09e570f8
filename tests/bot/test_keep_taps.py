"""Keeping score without waits (issue 33.3), under Telegram's real limits (no sped-up clock):
the keeper enters 8 deals by buttons in his private chat, tapping as soon as each next
question shows, never faster than 3 taps a second. No tap is refused, the group's message is
edited at most once per saved deal (each deal costs the group its result and at most that
edit), the group stays within its 20 calls a minute, and a /history sent meanwhile is
answered before any table edit that was waiting.

The figures (each next question's wait, the wall time) are printed (``-s``) for the notes.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

from tests.bot.harness import running_bot
from tests.bot.scorekeeping import Keeping, entry_message, open_keeping
from tests.fakebot import FakeTelegram, Message
from tests.fakebot.flood import EDITS, SENDS

TAPS_A_SECOND = 3
DEALS = 8
CONTROLS = ("↩ Back", "✖ Clear", "Stop correcting")


def _next_tap(message: Message) -> str:
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


def _group_calls(tg: FakeTelegram, keeping: Keeping, since: int) -> list[tuple[str, float]]:
    """The group's sends and edits answered after call number ``since``: (method, time)."""
    return [(c.method, c.time) for c in tg.calls[since:]
            if c.chat_id == keeping.group.id and c.method in SENDS | EDITS and c.status == 200]


async def test_eight_deals_at_three_taps_a_second(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Quick hands", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",))
        start, since = time.monotonic(), len(tg.calls)
        waits: list[float] = []
        history_at = 0.0
        last_tap = 0.0
        while len(keeping.table.match.deals) < DEALS:
            entry = keeping.message()
            label = _next_tap(entry)
            await asyncio.sleep(max(0.0, last_tap + 1 / TAPS_A_SECOND - time.monotonic()))
            seen = (entry.message_id, len(entry.revisions))
            last_tap = time.monotonic()
            answer = await tg.press(ann, entry, text=label)
            assert not answer.show_alert, (label, answer.text)  # never "out of date"
            if len(keeping.table.match.deals) == DEALS:
                break
            waits.append(await _changed(keeping, seen) - last_tap)
            if len(keeping.table.match.deals) == DEALS - 1 and not history_at:
                history_at = time.time()  # (the fake's clock)
                tg.send(bob, group, "/history")  # the group's busiest moment
        entered = time.monotonic() - start
        await keeping.settled()
        answered_at = next(c.time for c in tg.calls_for("sendMessage", group)
                           if c.time > history_at and "Last deals" in c.params.get("text", ""))
        calls = _group_calls(tg, keeping, since)
        results = [t for t in tg.texts(group) if t.startswith(tuple(
            f"Deal {n}\n" for n in range(1, DEALS + 1)))]
        assert len(results) == DEALS
        edits = [at for method, at in calls if method in EDITS]
        sends = [at for method, at in calls if method in SENDS]
        assert len(sends) == DEALS + 1  # each deal's result, and the /history reply
        assert 1 <= len(edits) <= DEALS + 1  # the group's message: once per deal at most
        assert tg.peak_rate(group) <= 20
        # nothing waiting in the group went before the reply: it went first
        assert not [at for at in edits if history_at < at < answered_at]
        assert len((await keeping.stored()).deals) == DEALS
        print(f"\n{len(waits) + 1} taps, {DEALS} deals in {entered:.1f} s; next question: "
              f"median {statistics.median(waits):.2f} s, max {max(waits):.2f} s; group calls "
              f"{len(calls)} ({len(sends)} messages, {len(edits)} edits); /history answered in "
              f"{answered_at - history_at:.2f} s")
