"""Seep as its waiting players read it (issue 33.5): a waiting player's panel shows the
floor and the last capture, and a deal's end stays on every panel when the next deal's
bid is forced (said below it, not instead of it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import make, only_table, seat_users
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

DEALS = 6  # at most: a deal whose next bid is forced comes within them (the seed's deals)


async def test_waiting_panels_show_the_floor_and_a_forced_bid_keeps_the_deals_end(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        lobby = await open_table(tg, group, users, game="seep")
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.settled(group)
        table = only_table(hub)
        seats = seat_users(hub, users)
        forced_seen = floor_seen = False
        while not forced_seen and len(table.match.outputs) < DEALS:
            played = len(table.match.outputs)
            while len(table.match.outputs) == played:
                state = table.match.state
                seat = state.to_act[0]
                await make(tg, seats[seat], state.legal_actions(seat)[0])
                state = table.match.state
                if state.bid is not None and not state.finished and not floor_seen:
                    # (the mover's panel may keep his buttons until the round is complete)
                    waiting = [u for s, u in seats.items() if s not in state.to_act and s != seat]
                    await tg.settled()
                    for user in waiting:
                        text = tg.last_message(user).text
                        assert "Floor: " in text and "Waiting for " in text, text
                    floor_seen = True
            await tg.settled()
            state = table.match.state
            if table.forced and state.bid is not None:  # the next bid was made for its bidder
                forced_seen = True
                number = len(table.match.outputs)
                for user in users:
                    assert f"🔚 Deal {number} is over." in tg.last_message(user).text
                bidder = tg.last_message(seats[state.bidder]).text
                assert bidder.index("🔚") < bidder.index("was your only choice: it is made")
        assert forced_seen and floor_seen
