"""No card of a hand reaches any chat but its owner's before the rules make it public."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.telegram.context import BotData as Hub
from engine.preferans.state import State
from tests.bot import test_preferans_game as game
from tests.bot.harness import open_table, running_bot
from tests.bot.privacy import Shown
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat


def concealed_from(state: State, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: the group) may not know now."""
    public = {c for c in state.view(None)["talon"]}
    for cards in state.view(None)["exposed"].values():
        public |= set(cards)
    hidden = {str(c) for other in range(state.n) if other != seat for c in state.hands[other]}
    if seat != state.declarer:
        hidden |= {str(c) for c in state.discarded}
    hidden |= {str(c) for c in state.talon}
    return hidden - public


def check(tg: FakeTelegram, hub: Hub, shown: Shown, users: list[User], group: Chat) -> None:
    state = next(iter(hub.services.tables.values())).match.state
    leaks = {}
    for seat, user in enumerate(users):
        leaked = shown.new_cards(tg.private_chat(user)) & concealed_from(state, seat)
        if leaked:
            leaks[user.first_name] = leaked
    leaked = shown.new_cards(group) & concealed_from(state, None)
    if leaked:
        leaks["group"] = leaked
    assert not leaks, leaks


@pytest.mark.parametrize("players", [3, 4])
async def test_no_card_leaks_through_every_kind_of_deal(tg: FakeTelegram, tmp_path: Path,
                                                        players: int) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan")[:players]]
    group = tg.add_group("Cards", users)
    shown = Shown(tg)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users, options={"Players": 1} if players == 4 else {})
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        check(tg, hub, shown, users, group)
        for intent in ("open", "miser", "raspasy", "whist_and_pass", "two_whists", "half_whist"):
            await game.play_deal(tg, hub, users, intent,
                                 after=lambda: check(tg, hub, shown, users, group))
