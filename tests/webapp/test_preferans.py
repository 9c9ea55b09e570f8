"""Two whole Preferans deals: Ann plays by taps in the Mini App, Bob and Cid by their
keyboards. In the first she bids, discards, names the contract and plays her cards; in the
second she whists, chooses open play and plays Cid's exposed cards as well as her own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import act
from tests.bot.privacy import concealed_from
from tests.bot.test_preferans_game import choose
from tests.fakebot import FakeTelegram
from tests.webapp.driver import table_message
from tests.webapp.game import play_along
from tests.webapp.harness import bot_with_webapp, started

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_a_deal_by_taps_beside_keyboards(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    dan = tg.add_user("Dan")  # watches
    group = tg.add_group("Cards", [*users, dan])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await started(tg, hub, group, users)
        panel_button = tg.last_message(users[0]).buttons[-1]
        assert panel_button["web_app"]["url"] == f"{url}?table={table.id}"
        group_button = table_message(tg, group).buttons[-1]
        assert group_button["url"] == f"https://t.me/{tg.bot.username}?startapp={table.id}"
        opener = table.match.state.to_act[0]
        assert table.user_of(opener) == users[0].id  # Ann bids first: she will play 6♠
        taps = await play_along(tg, hub, url, group, users, dan,
                                lambda state: choose(state, "whist_and_pass", opener),
                                concealed_from, act)
        kinds = [action.partition(":")[0] for _, action in taps]
        assert kinds == ["bid", "discard", "contract", *["play"] * 10]
        assert table.match.outputs[0]["contract"] == "6S"

        opener = table.match.state.to_act[0]  # Bob; Cid whists first (a pass), then Ann
        taps = await play_along(tg, hub, url, group, users, dan,
                                lambda state: choose(state, "open", opener), concealed_from, act)
        cid = table.row.seat_of(users[2].id)
        calls = [a for _, a in taps if a.startswith(("whist:", "open:"))]
        assert calls == ["whist:whist", "open:true"]
        assert any(seat == cid for seat, _ in taps)  # Cid's cards, from his exposed hand
        assert table.match.outputs[1]["contract"] == "6H"
