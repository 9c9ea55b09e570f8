"""Joker and Seep kept by hand through the real bot.

Joker: the first pulka typed with /deal, the second entered by buttons as
spec 18.5 gives it (dealer A): the pulka's sums, premiums and totals are the
spec's. Seep: the bazzi ledger of spec 16.3 by buttons, card points on the
keypad. Seats: Ann, Bob (Telegram), Cid, Dan (typed names).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import running_bot
from tests.bot.scorekeeping import open_keeping
from tests.fakebot import FakeTelegram
from tests.manual.test_joker_seep import LEDGER, PULKA_2

# What waits here is a group's budget (the scoresheet's edits): Telegram's windows pass
# eight times faster, on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(8)

SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "no trump"}
NAMES = ("Ann", "Bob", "Cid", "Dan")


async def test_joker_pulka_with_premium(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Joker", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, command="/joker", joiners=(ann, bob),
                                     guests=("Cid", "Dan"))
        await keeping.tap("Ann")
        for cards in range(1, 9):  # pulka 1: the first bidder takes every trick
            reply = await keeping.send(f"/deal H 0 0 0 0 {cards}")
            assert f"Deal {cards} · " in reply, reply  # its result
            assert f"Deal {cards + 1}" in keeping.message().text
        for number, (dealer, trump, bids, tricks, _) in enumerate(PULKA_2, 9):
            message = keeping.message().text
            assert f"Deal {number} · {NAMES[dealer]} deals" in message, message
            order = [(dealer + i) % 4 for i in range(1, 5)]
            await keeping.tap(SUITS[trump], *map(str, bids))
            await keeping.tap(*(str(tricks[s]) for s in order[:3]))
            assert keeping.labels()[0] == f"✅ Save deal {number}"  # the last count is forced
            await keeping.tap(f"✅ Save deal {number}")
        record = await keeping.stored()
        assert [o["points"] for o in record.outputs[8:12]] == [p[-1] for p in PULKA_2]
        pulka = record.report()["pulkas"][1]
        assert pulka["sums"] == [240, 300, 900, 270]
        assert pulka["premium"] == [-150, -200, 300, -100]
        assert pulka["totals"] == [90, 100, 1200, 170]
        assert any("Pulka 2 is over" in t for t in tg.texts(group))


async def test_joker_dealer_restriction_has_no_button(tg: FakeTelegram,
                                                      tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Joker", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, command="/joker", joiners=(ann, bob),
                                     guests=("Cid", "Dan"))
        await keeping.tap("Ann", "♥", "0", "0", "0")  # deal 1 (one card): Ann's 0 is forced
        assert "Ann bid 0" in keeping.message().text
        await keeping.tap("1", "✅ Save deal 1")  # Bob took it: the other counts are 0
        await keeping.tap("♠", "0", "0", "1")  # deal 2 (two cards): Bob deals and bids last
        assert "Bob's bid? The dealer may not bid 1." in keeping.message().text
        assert keeping.labels()[:2] == ["0", "2"]
        before = await keeping.stored()
        reply = await keeping.send("/deal S 0 0 1 1 2")
        assert "Bob: the dealer may not bid 1" in reply, reply
        assert (await keeping.stored()).record() == before.record()


async def test_seep_bazzi_ledger_by_buttons(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Seep", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, command="/seep", joiners=(ann, bob),
                                     guests=("Cid", "Dan"), options=("Bazzis", "Bazzis"))
        await keeping.tap("Cid")  # S deals first
        for number, (answers, dealer, score, lead, bazzi) in enumerate(LEDGER, 1):
            assert f"{NAMES[dealer]} deals" in keeping.message().text
            bid, ns_points, _, first, last, ns_sweeps, ew_sweeps = answers
            await keeping.tap(str(bid), *str(ns_points), "OK")
            await keeping.tap("yes" if first else "no", "yes" if last else "no",
                              str(ns_sweeps), str(ew_sweeps), f"✅ Save deal {number}")
            output = (await keeping.stored()).outputs[-1]
            assert (output["score"], output["lead"], output["bazzi"]) == (score, lead, bazzi)
        report = (await keeping.stored()).report()
        assert report["sheet"]["bazzis"] == [2, 0] and report["settlement"] == [2, -2, 2, -2]
        assert f"{NAMES[LEDGER[0][1]]} deals" in keeping.message().text  # NS lost none: S again
