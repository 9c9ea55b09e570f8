"""A whole Joker deal of nine cards: Ann names the trump (if she is the chooser), bids and plays
by taps in the Mini App, a joker by its declaration; the others by their keyboards."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.test_joker_game import NAMES, hidden_from, play_choice
from tests.fakebot import FakeTelegram
from tests.webapp.game import play_along
from tests.webapp.harness import bot_with_webapp, started

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def choose(state) -> str:
    """The first trump and bid offered, then ``play_choice`` (a joker whenever one is held)."""
    legal = state.legal_actions(state.to_act[0])
    return legal[0] if state.phase in ("trump", "bid") else play_choice(state)


async def test_a_nines_deal_by_taps_beside_keyboards(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    eve = tg.add_user("Eve")  # watches
    group = tg.add_group("Cards", [*users, eve])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        match = (await started(tg, hub, group, users, game="joker", options={"Deals": 1})).match
        assert match.state.cards == 9
        taps = await play_along(tg, hub, url, group, users, eve, choose, hidden_from)
        assert len(taps) >= 10  # a bid and nine cards
        assert match.outputs[0]["cards"] == 9
