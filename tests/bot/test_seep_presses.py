"""Seep through the real bot: /newgame's game buttons, the lobby's options and partners; the
two-step move (a card, then its move, or « Back); stale, foreign and forged presses get an
alert and change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.seep.pack import seep_deck
from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import (
    callbacks,
    command,
    only_table,
    press,
    refused,
    seat_users,
    snapshot,
)
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

NAMES = ("Ann", "Bob", "Cid", "Dan")


async def test_game_buttons_lobby_options_and_partners(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db"):
        for user in users:
            tg.press_start(user)
        question = await command(tg, users[0], group, "/newgame")
        assert question.text == "Which game shall we play?"
        assert question.button_texts == ["Preferans", "Seep", "Joker"]
        answer = await tg.press(users[1], question, text="Joker")  # not his menu
        assert answer.show_alert and "Only whoever sent /newgame" in answer.text
        await tg.press(users[0], question, text="Seep")
        await tg.settled(group)
        lobby = tg.last_message(group)
        assert lobby.text.startswith("🃏 New Seep table")
        assert question.buttons == [] and "Seep" in question.text  # the menu is answered
        again = await command(tg, users[1], group, "/newgame")  # the chat has a table
        assert "already has a Seep table" in again.text and again.reply_to is lobby

        await tg.press(users[0], lobby, text="Players: 4")
        await tg.settled(group)
        assert "Seep · 2 players" in lobby.text and "Players (1/2)" in lobby.text
        assert "🤝 Change partners" not in lobby.button_texts  # two players: no partners
        await tg.press(users[0], lobby, text="Players: 2")
        await tg.settled(group)
        await tg.press(users[0], lobby, text="⚙ Conventions")
        await tg.settled(group)
        await tg.press(users[0], lobby, text="A house absorbs: every set")
        await tg.settled(group)
        assert "A house absorbs: sets if wished" in lobby.text
        await tg.press(users[0], lobby, text="« Back")
        await tg.settled(group)

        for user in users[1:]:
            await tg.press(user, lobby, text="✋ Join")
            await tg.idle()
        await tg.settled(group)
        assert "Partners: Ann & Cid against Bob & Dan" in lobby.text
        answer = await tg.press(users[1], lobby, text="🤝 Change partners")
        assert answer.show_alert  # only the table's creator
        for partner in ("Dan", "Bob", "Cid"):
            await tg.press(users[0], lobby, text="🤝 Change partners")
            await tg.settled(group)
            assert f"Partners: Ann & {partner} against" in lobby.text


async def test_stale_foreign_and_forged_presses(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    eve = tg.add_user("Eve")
    group = tg.add_group("Cards", [*users, eve])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        lobby = await open_table(tg, group, users, game="seep")
        tg.press_start(eve)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.settled(group)
        table = only_table(hub)
        state = table.match.state
        players = seat_users(hub, users)
        bidder = players[state.bidder]
        other = players[state.rules.next_seat(state.bidder)]
        panel = tg.last_message(bidder)
        forced = state.bid is not None  # he held one value to bid: it was made for him
        head = f"a:{table.id}:{table.match.version}:{state.bidder}"
        bid = (f"{head}:{state.legal_actions(state.bidder)[0]}" if forced  # a move
               else next(d for d in callbacks(panel) if d.startswith("a:")))
        before, buttons = snapshot(hub), callbacks(panel)
        await refused(tg, other, tg.last_message(other), bid, "It is not your turn.")
        await refused(tg, eve, tg.last_message(eve), bid, "You are not playing at this table.")
        await refused(tg, bidder, panel, f"{head}:bid:8",
                      "the bid has been made" if forced else "a bid is 9 to 13")
        await refused(tg, bidder, panel, f"{head}:cap:ZZ", "cannot be read")
        held = state.view(state.bidder)["hand"]
        foreign = next(c for c in ("KD", "KS", "KH", "KC", "QD") if c not in held)
        await refused(tg, bidder, panel, head.replace("a:", "u:", 1) + ":" + foreign,
                      "not one of your")
        await refused(tg, bidder, panel, f"a:{table.id + 9}:1:0:bid:9", "This table is closed.")
        await refused(tg, bidder, panel, "x" * 20, "not one of mine")
        await refused(tg, bidder, panel, f"{head}:throw:" + "K" * 60, "not one of mine")
        assert snapshot(hub) == before
        assert callbacks(panel) == buttons  # (a made-up table's press took them away once)

        if forced:
            assert "was your only choice: it is made for you." in panel.text
        else:
            await press(tg, bidder, bid)  # the bid, by its button
            assert table.match.state.bid is not None
            before = snapshot(hub)
            await refused(tg, bidder, panel, bid, "out of date")
            assert snapshot(hub) == before

        panel = tg.last_message(bidder)
        assert "Your first move" in panel.text
        # A card with one move names it and plays at once; the first card with several
        # moves (played up to it by the one-tap buttons) opens them.
        shown = callbacks(panel)
        while not (cards := [d for d in shown if d.startswith("u:")]):
            await press(tg, bidder, shown[0])
            state = table.match.state
            bidder = players[state.to_act[0]]
            other = players[state.rules.next_seat(state.to_act[0])]
            panel = tg.last_message(bidder)
            shown = callbacks(panel)
        await press(tg, bidder, cards[0])
        moves = tg.last_message(bidder)
        assert "choose the move" in moves.text and moves.button_texts[-1] == "« Back"
        assert all(d.startswith("a:") for d in callbacks(moves)[:-1])
        await refused(tg, other, tg.last_message(other), callbacks(moves)[0],
                      "It is not your turn.")
        await press(tg, bidder, callbacks(moves)[-1])  # « Back
        assert callbacks(tg.last_message(bidder)) == shown
        absent = next(c for c in seep_deck()
                      if c not in table.match.state.hands[state.to_act[0]])
        await refused(tg, bidder, panel, f"{cards[0].rsplit(':', 1)[0]}:{absent}",
                      "not one of your")
        await press(tg, bidder, cards[0])
        move = callbacks(tg.last_message(bidder))[0]
        plays = table.match.state.plays
        await press(tg, bidder, move)
        assert table.match.state.plays == plays + 1
        before = snapshot(hub)
        await refused(tg, bidder, moves, move, "out of date")
        await refused(tg, bidder, moves, cards[0], "out of date")
        assert snapshot(hub) == before
