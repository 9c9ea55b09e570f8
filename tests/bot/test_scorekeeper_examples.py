"""Preferans spec section 14 (E1-E20) entered through the real bot, by buttons and by /deal.

Each example is entered as deal 1 of a scorekept table of its own with the
example's rules (set with the lobby's buttons), checked against the spec's
entries in the stored record as it replays, removed with /undo, entered again
as one line of text, checked, removed. Seats: Ann, Bob (Telegram), Cid, Dan (typed
names); the dealer is Cid with 3 players, Dan with 4.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.bot.harness import running_bot
from tests.bot.scorekeeping import Keeping, open_keeping
from tests.fakebot import FakeTelegram
from tests.manual.test_preferans_examples import EXAMPLES
from tests.preferans_scoring.helpers import entries

# What waits here is the chats' budgets: Telegram's windows pass four times faster, on both
# sides.
pytestmark = pytest.mark.telegram_clock(4)

# The buttons of each example after the dealer's, Save left out.
BUTTONS: dict[str, tuple[str, ...]] = {
    "E1": ("Ann", "6♠", "whist · whist", "0", "2", "2"),
    "E2": ("Ann", "7♥", "whist · pass", "0", "6"),
    "E3": ("Ann", "7♥", "whist · pass", "6"),
    "E4": ("Ann", "7♥", "pass · half-whist · whist", "6", "closed"),
    "E5": ("Ann", "6♦", "whist · whist", "0", "2", "1"),
    "E5 own_half": ("Ann", "6♦", "whist · whist", "0", "3", "0"),
    "E5 capped": ("Ann", "6♦", "whist · whist", "0", "3", "0"),
    "E6": ("Ann", "8♣", "whist · whist", "0", "0"),
    "E7": ("Ann", "9NT", "whist · pass", "0", "10", "open"),
    "E8 Sochi": ("Ann", "6♥", "pass · half-whist · pass", "0"),
    "E8 Peter": ("Ann", "7♠", "pass · half-whist · pass"),
    "E8 both pass": ("Ann", "8♠", "pass · pass", "0"),
    "E9 two": ("Ann: misère", "2"),
    "E9 clean": ("Ann: misère", "0"),
    "E9 Peter": ("Ann: misère", "1"),
    "E10": ("Ann", "6♠", "whist · whist", "0", "3", "3"),
    "E11": ("Bob", "8♦", "pass · whist", "6", "closed"),
    "E12": ("Ann", "6♣", "whist · pass", "5"),
    "E12 failed whist": ("Ann", "8♥", "whist · whist", "0", "0"),
    "E13 4p": ("Ann", "7♦", "whist · pass", "2", "7", "open"),
    "E13 3p": ("Ann", "6♠", "whist · whist", "3", "3", "1"),
    "E14": ("Raspasy (all passed)", "2", "1", "5"),
    "E15": ("Raspasy (all passed)", "0", "4"),
    "E15 pool": ("Raspasy (all passed)", "0", "4"),
    "E17": ("Raspasy (all passed)", "1", "4", "5"),
    "E18 a": ("Raspasy (all passed)", "1", "3"),
    "E18 b": ("Raspasy (all passed)", "2", "2"),
    "E18 c": ("Raspasy (all passed)", "0", "5"),
    "E18 d": ("Raspasy (all passed)", "1", "3"),
    "E19 Sochi": ("Ann: walked away", "7♠"),
    "E19 Peter": ("Ann: walked away", "7♠"),
    "E20 down": ("Ann", "10NT", "9"),
    "E20 made": ("Ann", "10NT", "10"),
}
# Lobby presses that set each example's rules (how the buttons cycle from the defaults).
OPTIONS = {"leningrad": ("Variant",), "rostov": ("Variant", "Variant")}
CONVENTIONS = {"walkaway": ("Walk away",), "zero_trick_reward": ("Raspasy zero",),
               "both_whist_shortfall": ("Two whisters short",)}


def lobby_presses(rules: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    options = OPTIONS.get(rules["variant"], ()) + (("Players",) if rules.get("players") == 4
                                                    else ())
    conventions = tuple(p for key, presses in CONVENTIONS.items() if key in rules
                        for p in presses)
    return options, conventions


async def stored_outputs(keeping: Keeping) -> list[dict[str, Any]]:
    """The outputs of the stored record's deals, replayed."""
    return (await keeping.stored()).outputs


async def check_example(keeping: Keeping, example: str, dealer: str, text: str,
                        expected: dict[str, list]) -> None:
    await keeping.tap(dealer, *BUTTONS[example], "✅ Save deal 1")
    assert [o["entries"] for o in await stored_outputs(keeping)] == [expected], example
    await keeping.send("/undo")
    assert await stored_outputs(keeping) == [], example
    await keeping.tap(dealer)
    reply = await keeping.send(f"/deal {text}")
    assert reply.startswith("Deal 1"), (example, reply)  # its result
    assert "Deal 2" in keeping.message().text, example  # the entry goes on with deal 2
    assert [o["entries"] for o in await stored_outputs(keeping)] == [expected], example
    await keeping.send("/undo")
    assert await stored_outputs(keeping) == [], example


async def test_every_example_by_buttons_and_text(tg: FakeTelegram, tmp_path: Path) -> None:
    """Each example at a table of its own, in a group of its own: the groups' minutes of
    Telegram's budget run side by side."""
    assert len(EXAMPLES) == len(BUTTONS)

    async def walk(n: int, example: str, rules: dict[str, Any], text: str,
                   expected: dict[str, list]) -> None:
        # (an Ann and a Bob of their own: each keeper's private chat has its own budget)
        ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
        four = rules.get("players") == 4
        options, conventions = lobby_presses(rules)
        group = tg.add_group(f"Table {n}", [ann, bob])
        keeping = await open_keeping(
            tg, hub, group, ann, joiners=(ann, bob), guests=("Cid", "Dan") if four else ("Cid",),
            options=options, conventions=conventions)
        assert keeping.table.match.rules.to_dict().items() >= rules.items()
        await check_example(keeping, example, "Dan" if four else "Cid", text, expected)

    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await asyncio.gather(*(walk(n, example, rules, text, expected)
                               for n, (example, rules, _, text, expected) in enumerate(EXAMPLES)))


async def test_e16_raspasy_in_state_two(tg: FakeTelegram, tmp_path: Path) -> None:
    """Peter: a raspasy dealt by Bob, then one in state 2 (r = 4) dealt by Cid."""
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Peter", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",),
                                     options=("Variant",))
        await keeping.tap("Bob", "Raspasy (all passed)", "5", "2", "✅ Save deal 1")
        assert "raspasy state 2: contracts from 7♠" in keeping.message().text
        await keeping.tap("Bob")
        assert "6♠" not in keeping.labels() and "7♠" in keeping.labels()
        await keeping.tap("↩ Back", "Raspasy (all passed)", "0", "3", "✅ Save deal 2")
        outputs = await stored_outputs(keeping)
        assert outputs[1]["entries"] == entries(mountain={0: -8, 1: 12, 2: 28})
