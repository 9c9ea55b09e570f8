"""The lobby answers at once (issue 33.1): a press's toast names its effect, the lobby's
message shows it without waiting for the group's paced minute, and a second press of a
button the message has not redrawn yet does not undo the first."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import running_bot
from tests.fakebot import FakeTelegram, Message


def button_data(lobby: Message, label: str) -> str:
    return str(next(b for b in lobby.buttons if b["text"].startswith(label))["callback_data"])


async def test_every_lobby_press_answers_its_effect_and_shows_at_once(tg: FakeTelegram,
                                                                      tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db"):
        for user in users:
            tg.press_start(user)
        await tg.idle()
        tg.send(users[0], group, "/newgame preferans")
        await tg.idle()
        lobby = tg.last_message(group)
        assert "Players: 3" in lobby.button_texts
        three = button_data(lobby, "Players")

        answer = await tg.press(users[0], lobby, data=three)
        assert (answer.text, answer.show_alert) == ("Players: 4", False)
        await tg.idle()  # no waiting for the group's paced minute (a paced edit rests)
        assert "Players: 4" in lobby.button_texts and "Players (1/4)" in lobby.text
        edits = len(lobby.revisions)

        # The same button pressed again before it was redrawn (its data says "3"): the
        # press does not move the option on again, it tells what it is.
        answer = await tg.press(users[0], lobby, data=three, forge=True)
        assert answer.text == "Already so: Players: 4"
        await tg.idle()
        assert "Players: 4" in lobby.button_texts and len(lobby.revisions) == edits
        answer = await tg.press(users[0], lobby, text="Players: 4")  # the redrawn one moves on
        assert answer.text == "Players: 3"
        await tg.idle()
        answer = await tg.press(users[0], lobby, text="Players: 3")
        assert answer.text == "Players: 4"

        answer = await tg.press(users[0], lobby, text="⏱ Turn time: off")
        assert answer.text == "⏱ Turn time: 5 min"
        await tg.idle()
        assert "⏱ Turn time: 5 min" in lobby.button_texts

        for n, user in enumerate(users[1:], 2):
            answer = await tg.press(user, lobby, text="✋ Join")
            assert answer.text == f"You joined: {n} of 4."
            await tg.idle()
            assert f"Players ({n}/4)" in lobby.text
        answer = await tg.press(users[1], lobby, text="✋ Join")
        assert answer.text == "You are already at this table."
