"""Joker through the real bot: the lobby's options (a value the other rules forbid is
skipped), the 9-card trump chosen from three cards, the dealer's forbidden bid, the joker's
declaration as a second step (with « Back); stale, foreign and forged presses get an alert
and change nothing. Privacy is checked after every press."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import (
    QUIET,
    Watch,
    callbacks,
    only_table,
    press,
    refused,
    seat_users,
    snapshot,
)
from tests.bot.test_joker_game import hidden_from
from tests.fakebot import FakeTelegram
from tests.fakebot.model import Message

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

NAMES = ("Ann", "Bob", "Cid", "Dan")


async def test_lobby_options_skip_what_the_rules_forbid(tg: FakeTelegram,
                                                       tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db"):
        lobby = await open_table(tg, group, users[:1], game="joker")
        await tg.press(users[0], lobby, text="⚙ Conventions")
        await tg.settled(group)
        trump = "Trump of the 9-card deals: "
        for now, after in (("chosen after three cards", "no trump"),
                           ("no trump", "chosen after three cards")):  # turned up: not with 4
            await tg.press(users[0], lobby, text=trump + now)
            await tg.settled(group)
            assert trump + after in [b["text"] for b in lobby.buttons]
            assert (trump + after in lobby.text) == (after == "no trump")  # only if unusual
        await tg.press(users[0], lobby, text="Pairs (partners sit opposite): off")
        await tg.settled(group)
        await tg.press(users[0], lobby, text="« Back")
        await tg.settled(group)
        assert "Partners: Ann & … against … & …" in lobby.text
        answer = await tg.press(users[0], lobby, text="Players: 4")  # pairs need four
        assert answer.show_alert and "pairs need 4 players" in answer.text
        assert "Joker · 4 players" in lobby.text


async def test_trump_choice_forbidden_bid_joker_step_and_bad_presses(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    eve = tg.add_user("Eve")
    group = tg.add_group("Cards", [*users, eve])
    watch = Watch(tg, group, users, hidden_from)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        lobby = await open_table(tg, group, users, game="joker", options={"Deals": 2})
        assert "8 nines" in lobby.text
        tg.press_start(eve)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle(quiet=QUIET)
        watch.check(hub)
        table = only_table(hub)
        state = table.match.state
        players = seat_users(hub, users)
        chooser = players[state.first]
        other = players[state.dealer]

        panel = tg.last_message(chooser)
        assert "name the trump from your first three cards" in panel.text
        assert panel.button_texts == ["♠", "♥", "♦", "♣", "no trump"]
        assert "You see your first three cards" in tg.last_message(other).text
        hearts = next(d for d in callbacks(panel) if d.endswith(":trump:H"))
        head = hearts.rsplit(":", 2)[0]
        before = snapshot(hub)
        await refused(tg, other, tg.last_message(other), hearts, "It is not your turn.")
        await refused(tg, eve, tg.last_message(eve), hearts, "You are not playing at this table.")
        await refused(tg, chooser, panel, f"{head}:trump:X", "is not a suit")
        await refused(tg, chooser, panel, f"{head}:bid:3", "it is time to choose the trump")
        await refused(tg, chooser, panel, head.replace("a:", "u:", 1) + ":JK", "not one of your")
        assert snapshot(hub) == before
        await press(tg, chooser, hearts)
        watch.check(hub)
        await refused(tg, chooser, panel, hearts, "out of date")

        while state.to_act[0] != state.dealer:  # everyone passes up to the dealer
            await press(tg, players[state.to_act[0]], next(
                d for d in callbacks(tg.last_message(players[state.to_act[0]]))
                if d.endswith(":bid:0")))
            watch.check(hub)
        dealer = players[state.dealer]
        panel = tg.last_message(dealer)
        assert f"{dealer.first_name} (dealer) may not bid 9" in panel.text
        assert "9" not in panel.button_texts and "8" in panel.button_texts
        before = snapshot(hub)
        await refused(tg, dealer, panel, f"{panel_head(panel)}:bid:9", "the dealer may not bid 9")
        assert snapshot(hub) == before
        await press(tg, dealer, next(d for d in callbacks(panel) if d.endswith(":bid:1")))
        watch.check(hub)
        assert "(total 1 of 9: under)" in tg.last_message(dealer).text

        while not any(c.is_joker for c in state.hands[state.to_act[0]]):
            user = players[state.to_act[0]]
            await press(tg, user, callbacks(tg.last_message(user))[0])
            watch.check(hub)
        user = players[state.to_act[0]]
        panel = tg.last_message(user)
        assert panel.button_texts[-1] == "🃏"
        joker = callbacks(panel)[-1]
        await press(tg, user, joker)
        declarations = tg.last_message(user)
        assert "how does it play?" in declarations.text
        labels = declarations.button_texts
        assert labels[-1] == "« Back"
        assert ({"🃏 takes", "🃏 under"} <= set(labels) if state.trick else
                {"🃏 wants ♥", "🃏 low ♠", "🃏 as 6♠"} <= set(labels))
        await press(tg, user, callbacks(declarations)[-1])  # « Back
        assert callbacks(tg.last_message(user)) == callbacks(panel)
        await refused(tg, user, panel, joker.rsplit(":", 1)[0] + ":QQ", "not one of your")
        await press(tg, user, joker)
        played = len(state.trick) + 4 * sum(state.tricks)
        declared = callbacks(tg.last_message(user))[0]
        await press(tg, user, declared)
        watch.check(hub)
        assert len(state.trick) + 4 * sum(state.tricks) == played + 1
        before = snapshot(hub)
        await refused(tg, user, panel, declared, "out of date")
        assert snapshot(hub) == before


def panel_head(panel: Message) -> str:
    """``a:table:version:seat`` of a panel's action buttons."""
    return next(d for d in callbacks(panel) if d.startswith("a:")).rsplit(":", 2)[0]
