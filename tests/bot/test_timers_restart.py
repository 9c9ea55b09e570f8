"""Timers survive restarts: a timer set before a restart fires after it at its own
moment (the stored deadline, from the timer's row), the nudge is not sent twice, and a
deadline that passed while the bot was down is applied once, right after the start. On
SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from tests.bot.timer_clock import (
    HOUR,
    MINUTE,
    START,
    bot,
    game,
    players,
    robot_entries,
    sent_at,
    texts_with,
)
from tests.fakebot import FakeTelegram

NUDGE = "⏳ It is your turn"


async def test_a_timer_set_before_a_restart_fires_after_it_at_the_right_moment(
        tg: FakeTelegram, tmp_path: Path, location: str) -> None:
    with players(tg, tmp_path, location=location) as p:
        async with game(p, {"⏱ Turn time": 2, "⌛ On timeout": 1}) as g:  # 1 h, auto move
            deadline = g.table.row.timer_deadline
            assert deadline == START.timestamp() + HOUR
            player = g.to_act()
            await g.advance(35 * MINUTE)
            assert len(texts_with(tg, player, NUDGE)) == 1
        p.clock.shift(20 * MINUTE)  # the bot is down from 12:35 to 12:55
        async with bot(p) as g:
            assert g.table.row.timer_deadline == deadline and g.table.row.timer_nudged
            assert len(texts_with(tg, player, NUDGE)) == 1  # not nudged again
            await g.advance(5 * MINUTE - 1)
            assert await robot_entries(g) == []
            await g.advance(1)
            assert len(await robot_entries(g)) == 1
            assert sent_at(tg, p.group, "⏰ Time is up") == HOUR


async def test_a_nudge_and_a_deadline_missed_while_down_are_sent_once_after_the_start(
        tg: FakeTelegram, tmp_path: Path, location: str) -> None:
    with players(tg, tmp_path, location=location) as p:
        async with game(p, {"⏱ Turn time": 2}) as g:  # 1 h, reminders, wait
            player = g.to_act()
        p.clock.shift(40 * MINUTE)  # down over the half time: the nudge comes at the start
        async with bot(p):
            assert texts_with(tg, player, NUDGE) == [
                "⏳ It is your turn in Preferans: 20 min left."]
        p.clock.shift(2 * HOUR)  # down over the deadline
        async with bot(p) as g:
            assert len(texts_with(tg, p.group, "your time is up")) == 1
            assert g.table.row.timer_deadline is None
        async with bot(p) as g:
            await g.advance(HOUR)
            assert len(texts_with(tg, p.group, "your time is up")) == 1
            assert len(texts_with(tg, player, NUDGE)) == 1
            assert g.to_act() is player
