"""Turn timers with a controllable clock: the half-time nudge and the group reminder fire
once and on time, a timeout applies the table's policy once, a move just before the
deadline cancels the timer, quiet hours silence the timers' messages."""

from __future__ import annotations

from pathlib import Path

from storage.rows import TimerRow
from tests.bot.harness import act
from tests.bot.timer_clock import (
    HOUR,
    MINUTE,
    START,
    game,
    players,
    robot_entries,
    sent_at,
    texts_with,
)
from tests.fakebot import FakeTelegram

NUDGE = "⏳ It is your turn"
TIME_UP = "your time is up"


async def test_reminders_fire_once_at_the_right_time(tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        async with game(p, {"⏱ Turn time": 2}) as g:  # 1 h, reminders, wait
            assert g.table.row.timer_deadline == START.timestamp() + HOUR
            player = g.to_act()
            assert "⏳ Your turn: until 13:00 UTC." in tg.last_message(player).text
            await g.advance(30 * MINUTE - 5)
            assert texts_with(tg, player, NUDGE) == []
            await g.advance(10)
            assert texts_with(tg, player, NUDGE) == [
                "⏳ It is your turn in Preferans: 30 min left."]
            assert sent_at(tg, player, NUDGE) == 30 * MINUTE + 5
            assert all(texts_with(tg, u, NUDGE) == [] for u in p.users if u is not player)
            assert NUDGE not in tg.last_message(player).text  # a fresh panel came after it
            await g.advance(30 * MINUTE - 15)
            assert texts_with(tg, p.group, TIME_UP) == []
            await g.advance(10)
            assert texts_with(tg, p.group, TIME_UP) == [
                f"⏰ {player.first_name}, your time is up. The table waits for you."]
            assert sent_at(tg, p.group, TIME_UP) == HOUR
            assert "⏰ Waiting for" in g.hub.presenter.book.slot(g.table, None).screen.text
            await g.advance(30 * HOUR)
            assert len(texts_with(tg, p.group, TIME_UP)) == 1
            assert len(texts_with(tg, player, NUDGE)) == 1
            assert g.to_act() is player and await robot_entries(g) == []


async def test_a_timeout_moves_exactly_once_and_a_move_just_before_the_deadline_cancels_it(
        tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        async with game(p, {"⏱ Turn time": 1, "⌛ On timeout": 1}) as g:  # 5 min, auto move
            table = g.table
            version, deadline = table.match.version, table.row.timer_deadline
            first = table.match.state.to_act[0]
            await g.advance(5 * MINUTE)
            assert [(seat, payload) for _, seat, payload in await robot_entries(g)] == [
                (first, f'{{"seat":{first},"bid":"pass"}}')]
            assert table.match.version == version + 1
            assert texts_with(tg, p.group, "⏰ Time is up") == [
                f"⏰ Time is up for {p.users[first].first_name}: I made a move for them."]
            # The next player's own five minutes began with that move.
            assert (table.row.timer_version, table.row.timer_deadline) == (
                version + 1, deadline + 5 * MINUTE)
            # A stale job of the old timer (as if one were left over) does nothing.
            g.hub.services.timers.arm(TimerRow(table.id, "deadline", deadline, version, deadline))
            await g.advance(1)
            assert len(await robot_entries(g)) == 1 and table.match.version == version + 1
            # The next player moves a second before the deadline: no timeout follows.
            await g.advance(5 * MINUTE - 2)
            await act(tg, g.to_act(), "bid:pass")
            await g.advance(2)
            assert len(await robot_entries(g)) == 1 and table.match.version == version + 2
            assert table.row.timer_deadline == deadline + 10 * MINUTE - 1  # from the move
            assert len(texts_with(tg, p.group, "⏰")) == 1


async def test_quiet_hours_silence_the_timers_messages(tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        async with game(p, {"⏱ Turn time": 2}) as g:  # 1 h from 12:00 UTC
            tg.send(p.users[0], p.group, "/quiet 14:00-15:30 Europe/Berlin")  # 13:00-14:30 UTC
            await tg.settled(p.group)
            assert "Quiet hours: 14:00-15:30 (Europe/Berlin)" in tg.last_message(p.group).text
            tg.send(p.users[0], p.group, "/quiet 25:00-08:00")
            await tg.settled(p.group)
            assert "I cannot read that" in tg.last_message(p.group).text
            await g.advance(31 * MINUTE)  # the nudge at 12:31 UTC: not quiet
            # the deadline as a date_time entity, its text the chat's clock
            assert '">14:00 Europe/Berlin</tg-time>.' in g.hub.presenter.book.slot(
                g.table, None).screen.text
            await g.advance(30 * MINUTE)  # 13:01 UTC, 14:01 in Berlin: quiet
            (nudge,) = [c for c in tg.calls_for("sendMessage") if NUDGE in c.params["text"]]
            assert not nudge.params.get("disable_notification")
            (reminder,) = [c for c in tg.calls_for("sendMessage", p.group)
                           if TIME_UP in c.params["text"]]
            assert reminder.params.get("disable_notification") is True
            tg.send(p.users[0], p.group, "/quiet off")
            await tg.settled(p.group)
            assert "No quiet hours (time zone Europe/Berlin)." in tg.last_message(p.group).text
