"""A table spends its calls by the game's rhythm (bot/telegram/rhythm.py): a player's cards stay
on his panel after he played one, until the trick is complete (or, for the player who acts
after the next trick's leader, until his turn); pressed meanwhile, such a button is refused as
out of date and the panel shows the game at once. Whoever acts always has his buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import acting, press_first, running_bot, started_game
from tests.bot.tabletop import callbacks, only_table
from tests.fakebot import FakeTelegram, Message, User

pytestmark = pytest.mark.telegram_clock(4)


def plays(message: Message) -> list[str]:
    """The message's card buttons: ``a:T:V:S:play...`` (the version is the third part)."""
    return [d for d in callbacks(message) if d.startswith("a:")]


def version(data: str) -> int:
    return int(data.split(":")[2])


async def test_played_cards_wait_for_the_trick_and_a_press_of_one_shows_the_panel(
        tmp_path: Path) -> None:
    async with FakeTelegram() as tg, running_bot(tg, tmp_path / "bot.db") as hub:
        users, _ = await started_game(tg)
        table = only_table(hub)
        while table.match is None or table.match.state.phase != "play":
            assert await press_first(tg, users)  # everyone passes: raspasy

        def user_to_act() -> User:
            assert table.match is not None
            state = table.match.state
            seat = state.controller(state.to_act[0])
            return next(u for u in users if u.id == table.user_of(seat))

        first = user_to_act()
        assert acting(tg, users) == [first]
        assert await press_first(tg, users)  # the trick's first card
        second = user_to_act()
        assert acting(tg, users) == [second]
        panel = tg.last_message(first)
        shown = len(panel.revisions)
        assert plays(panel), "the first player's cards wait for the trick's end"

        assert await press_first(tg, users)  # the second card
        assert len(tg.last_message(first).revisions) == shown  # still not edited
        stale = plays(panel)[0]
        answer = await tg.press(first, panel, data=stale)
        assert answer.show_alert and "out of date" in answer.text, answer.text
        await tg.idle()
        assert table.match is not None and table.match.version == version(stale) + 2
        assert not plays(tg.last_message(first)), "a stale press shows the panel at once"

        third = user_to_act()
        assert await press_first(tg, users)  # the trick is complete
        leader = user_to_act()
        latest = table.match.version
        assert {version(d) for d in plays(tg.last_message(leader))} == {latest}
        # the player after the leader keeps his played cards until his turn (one card away);
        # the other's go now
        after = {first, second, third} - {leader}
        lingering = [u for u in after if plays(tg.last_message(u))]
        assert len(lingering) <= 1
        for user in after:
            assert all(version(d) < latest for d in plays(tg.last_message(user)))
        if lingering:
            assert await press_first(tg, users)  # the leader plays: the follower's turn
            (follower,) = lingering
            assert user_to_act() == follower
            assert {version(d) for d in plays(tg.last_message(follower))} == {
                table.match.version}
