"""The substitute robot: it takes over a seat whose time ran out, finishes the deal its
player abandoned with moves stored and shown as the robot's, and leaves the seat when
its player presses a button of their panel; with everybody away the game pauses."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import press_first
from tests.bot.timer_clock import MINUTE, game, players, robot_entries, texts_with
from tests.fakebot import FakeTelegram

ROBOT = {"⏱ Turn time": 1, "⌛ On timeout": 2}  # 5 min, a substitute robot


async def test_a_robot_finishes_a_deal_that_its_player_abandoned(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        async with game(p, ROBOT) as g:
            table = g.table
            gone = g.to_act()
            seat = p.users.index(gone)
            others = [u for u in p.users if u is not gone]
            await g.advance(5 * MINUTE)
            assert table.row.robot_seats() == {seat}
            assert texts_with(tg, p.group, "a robot plays for them") == [
                f"⏰ Time is up for {gone.first_name}: a robot plays for them until they "
                "press a button of their panel."]
            presses = 0
            while not table.match.outputs:
                assert await press_first(tg, others), "nobody can move: the robot is stuck"
                presses += 1
                assert presses < 100
            robot_moves = await robot_entries(g)
            assert len(robot_moves) >= 2 and {s for _, s, _ in robot_moves} == {seat}
            assert any(t.startswith("Deal 1") for t in tg.texts(p.group))
            tg.send(p.users[0], p.group, "/history")
            await tg.settled(p.group)
            assert f"🤖 a robot played for {gone.first_name}" in tg.last_message(p.group).text
            tg.send(gone, p.group, "/stats")
            await tg.settled(p.group)
            assert "Deals: 1 · the robot played for them: 1" in tg.last_message(p.group).text
            panel = tg.last_message(gone)
            assert "A robot plays for you" in panel.text
            answer = await tg.press(gone, panel, text="🙋 I am back")
            assert answer.text == "Welcome back: you play your seat again."
            await tg.settled(p.group)
            assert table.row.robot_seats() == frozenset()
            assert texts_with(tg, p.group, "is back") == [
                f"🙋 {gone.first_name} is back and plays again."]
            moves = len(await robot_entries(g))
            while g.to_act() is not gone:
                assert await press_first(tg, others)
            assert len(await robot_entries(g)) == moves  # the player's turn waits for the player
            assert any(b["callback_data"].startswith("a:") for b in
                       tg.last_message(gone).buttons if "callback_data" in b)


async def test_everybody_away_pauses_and_any_panel_button_takes_the_seat_back(
        tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        async with game(p, ROBOT) as g:
            table = g.table
            away = []
            for _ in range(2):  # two players time out, one after the other
                away.append(g.to_act())
                await g.advance(5 * MINUTE)
            robots = {p.users.index(u) for u in away}
            assert table.row.robot_seats() == robots
            last = g.to_act()
            assert last not in away
            await g.advance(5 * MINUTE)  # robots alone would play it all out: a pause
            assert table.status == "paused" and table.row.robot_seats() == robots
            assert texts_with(tg, p.group, "Everybody is away") != []
            version = table.match.version
            await g.advance(24 * 60 * MINUTE)
            assert table.match.version == version  # no moves, no timers while paused
            # A button of an old panel (here: a move of a past version) is refused and brings
            # nobody back (a press counts only once it is checked); the paused panel's
            # "I am back" does.
            back, seat = away[0], p.users.index(away[0])
            answer = await tg.press(back, tg.last_message(back), forge=True,
                                    data=f"a:{table.id}:{version - 1}:{seat}:bid:pass")
            await tg.idle()
            assert answer.show_alert and table.row.robot_seats() == robots
            answer = await tg.press(back, tg.last_message(back), text="🙋 I am back")
            await tg.settled(p.group)
            assert not answer.show_alert and table.row.robot_seats() == {
                p.users.index(away[1])}
            assert texts_with(tg, p.group, "is back") == [
                f"🙋 {back.first_name} is back and plays again."]
            tg.send(last, p.group, "/resume")
            await tg.settled(p.group)
            vote = tg.last_message(p.group)
            assert f"{last.first_name} wants to go on with the game." in vote.text
            answer = await tg.press(away[1], vote, text="✅ Agree")
            assert answer.show_alert  # a player a robot stands in for does not vote
            await tg.press(back, vote, text="✅ Agree")
            await tg.settled(p.group)
            assert table.status == "playing" and "▶ The game goes on." in tg.texts(p.group)
            assert table.row.timer_version == version  # a fresh turn time for the player
            assert table.row.timer_deadline is not None
