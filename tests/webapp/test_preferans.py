"""A whole Preferans deal: Ann bids, discards, names the contract and plays her cards by taps
in the Mini App; Bob and Cid use their keyboards (Bob whists)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import open_table
from tests.bot.tabletop import only_table
from tests.bot.test_preferans_game import choose
from tests.bot.test_privacy import concealed_from
from tests.fakebot import FakeTelegram
from tests.webapp.driver import table_message
from tests.webapp.game import play_along
from tests.webapp.harness import bot_with_webapp


async def test_a_deal_by_taps_beside_keyboards(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    dan = tg.add_user("Dan")  # watches
    group = tg.add_group("Cards", [*users, dan])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        lobby = await open_table(tg, group, users)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        table = only_table(hub)
        panel_button = tg.last_message(users[0]).buttons[-1]
        assert panel_button["web_app"]["url"] == f"{url}?table={table.id}"
        group_button = table_message(tg, group).buttons[-1]
        assert group_button["url"] == f"https://t.me/{tg.bot.username}?startapp={table.id}"
        opener = table.match.state.to_act[0]
        assert table.user_of(opener) == users[0].id  # Ann bids first: she will play 6♠
        taps = await play_along(tg, hub, url, group, users, dan,
                                lambda state: choose(state, "whist_and_pass", opener),
                                concealed_from)
        assert taps == 13  # the bid, the discard, the contract and ten cards
        assert table.match.outputs[0]["contract"] == "6S"
