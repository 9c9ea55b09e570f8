"""A game's end through the real bot: the final message tells each player's rating change
(as openskill computes it), and its "Play again" button opens a lobby with the same players
one seat on and the same rules; each confirms with one press (either button, across a
restart of the bot) and the game starts when all have."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.screens.ratings import change, rating
from tests.bot.harness import open_table, press_first, running_bot
from tests.fakebot import FakeTelegram, Message, User

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

NAMES = ("Ann", "Bob", "Cid")


def find(tg: FakeTelegram, chat: object, start: str) -> Message:
    return next(m for m in reversed(tg.messages(chat)) if m.text.startswith(start))


async def press(tg: FakeTelegram, user: User, message: Message, text: str) -> str:
    """Press the button; the bot's answer (an alert if it refused)."""
    answer = await tg.press(user, message, text=text)
    await tg.settled(message.chat)
    return ("refused: " if answer.show_alert else "") + (answer.text or "")


async def end_by_vote(tg: FakeTelegram, group: object, users: list[User], command: str,
                      final: str) -> Message:
    """The first player asks to end the game, the others agree; the final message."""
    tg.send(users[0], group, command)
    await tg.settled(group)
    vote = tg.last_message(group)
    for user in users[1:]:
        await press(tg, user, vote, "✅ Agree")
    return find(tg, group, final)


async def test_a_rematch_by_buttons_alone(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    stranger = tg.add_user("Dan")
    group = tg.add_group("Cards", [*users, stranger])
    db = tmp_path / "bot.db"
    async with running_bot(tg, db) as hub:
        lobby = await open_table(tg, group, users, options={"Pool": 1, "Variant": 1})
        rules_line = lobby.text.splitlines()[2]
        assert "pool 20" in rules_line
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        table = next(iter(hub.services.tables.values()))
        rules = table.match.rules.to_dict()
        while not table.match.outputs:  # one deal, by buttons
            assert await press_first(tg, users)
        settlement = table.match.report()["settlement"]

        final = await end_by_vote(tg, group, users, "/leave", "🏁")
        assert final.text.startswith("🏁 The game was stopped by agreement.")
        assert final.button_texts == ["🔁 Play again"]
        model = PlackettLuce()
        ranks = [1 + sum(other > mine for other in settlement) for mine in settlement]
        after = model.rate([[model.rating()] for _ in users], ranks=ranks)
        lines = final.text.split("📈 Ratings in this group:\n")[1].splitlines()
        start = model.rating().ordinal()
        assert lines == [f"{name} {rating(start)} → {rating(new.ordinal())} "
                         f"({change(round(new.ordinal(), 1) - round(start, 1))})"
                         for name, [new] in zip(NAMES, after, strict=True)]
        for line in lines:  # the shown numbers add up
            before, after_text = line.split(" ", 1)[1].split(" (")[0].split(" → ")
            shown = float(line.split(" (")[1].rstrip(")").replace("±", ""))
            assert round(float(after_text) - float(before), 1) == shown

        assert await press(tg, stranger, final, "🔁 Play again") == (
            "refused: Only the players of this game can do that.")
        assert await press(tg, users[1], final, "🔁 Play again") == (
            "You play again. The game starts when everyone has pressed.")
        again = tg.last_message(group)
        assert again.text.startswith("🔁 Preferans again")
        assert again.text.splitlines()[2] == rules_line  # the same rules
        assert "Players (3/3): Cid, Ann, ✅ Bob" in again.text  # each one seat on
        assert again.button_texts == ["✅ I play", "Leave", "✖ Cancel"]
        assert await press(tg, users[1], again, "✅ I play") == (
            "refused: You have pressed already: the game starts when everyone has.")

    async with running_bot(tg, db) as hub:  # the buttons work after a restart
        assert await press(tg, users[0], again, "✅ I play") == (
            "You play again. The game starts when everyone has pressed.")
        assert "Players (3/3): Cid, ✅ Ann, ✅ Bob" in again.text
        assert not hub.services.tables.values()[0].match
        assert await press(tg, users[2], final, "🔁 Play again") == ""
        assert find(tg, group, "The game begins")
        [table] = hub.services.tables.values()
        assert table.status == "playing" and table.names == ["Cid", "Ann", "Bob"]
        assert table.match.rules.to_dict() == rules
        assert table.rematch_of == final_table(final)
        assert all(tg.last_message(user).buttons is not None for user in users)
        assert (await press(tg, users[0], final, "🔁 Play again")).startswith(
            "refused: This chat already has a Preferans table (playing)")


def final_table(message: Message) -> int:
    """The ended table a "Play again" button names (``p:T``)."""
    [button] = message.buttons
    return int(button["callback_data"].split(":")[1])


async def test_a_player_who_leaves_makes_it_an_ordinary_lobby(tg: FakeTelegram,
                                                              tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db"):
        lobby = await open_table(tg, group, users)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        final = await end_by_vote(tg, group, users, "/abort", "The game was abandoned")
        assert "Ratings" not in final.text  # nothing counts
        await press(tg, users[0], final, "🔁 Play again")
        again = tg.last_message(group)
        assert await press(tg, users[2], again, "Leave") == "You left the table."
        assert again.text.startswith("🃏 New Preferans table")
        assert "▶ Start" in again.button_texts and "✅ I play" not in again.button_texts
        assert (await press(tg, users[1], final, "🔁 Play again")).startswith(
            "refused: This chat already has a Preferans table (lobby)")


async def test_a_game_stopped_before_any_deal_ended_is_not_rated(tg: FakeTelegram,
                                                                 tmp_path: Path) -> None:
    """Stopping by agreement during deal 1's auction settles nothing: the game is recorded
    as abandoned, unrated (a rating could be farmed by stopping at once)."""
    users = [tg.add_user(n) for n in NAMES]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        lobby = await open_table(tg, group, users)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        assert await press_first(tg, users)  # a bid of deal 1
        final = await end_by_vote(tg, group, users, "/leave", "The game was abandoned")
        assert "Ratings" not in final.text
        assert not await hub.services.store.ratings.changes()
        tg.send(users[0], group, "/stats")
        await tg.settled(group)
        stats = tg.last_message(group).text
        assert "Finished games" not in stats and "Rating" not in stats, stats
