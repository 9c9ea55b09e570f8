"""A whole Seep deal: Ann bids and makes her moves by taps in the Mini App (a card, then its
move where it has several), her partner and opponents by their keyboards; the Seep robot
decides for everyone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.seep import robot
from tests.bot.test_seep_game import NAMES, hidden_from
from tests.fakebot import FakeTelegram
from tests.webapp.game import play_along
from tests.webapp.harness import bot_with_webapp, started

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_a_deal_by_taps_beside_keyboards(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    eve = tg.add_user("Eve")  # watches
    group = tg.add_group("Cards", [*users, eve])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        match = (await started(tg, hub, group, users, game="seep")).match
        rng = random.Random(19)
        taps = await play_along(
            tg, hub, url, group, users, eve,
            lambda state: robot.choose(state.view(state.to_act[0]), match.rules, rng),
            hidden_from)
        assert len(taps) >= 12  # Ann's twelve cards (and the bid, if she was the bidder)
        assert [o for o in match.outputs if o["bid"] is not None]  # a deal played (and no redeal)
