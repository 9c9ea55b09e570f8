"""Seep end to end through the real bot: a whole deal made by button presses alone (the
Seep robot decides, the buttons carry it out), through a restart of the bot in the middle;
then /score against `python -m engine replay` of the /export. After every move no chat has
been shown a card the rules still hide from it, and every button's data fits in 64 bytes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.telegram.context import BotData as Hub
from bot.ui.balances import signed
from engine.seep import robot
from engine.seep.state import State
from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import (
    QUIET,
    Watch,
    button_count,
    command,
    exported,
    make,
    only_table,
    oversized,
    replay,
    seat_users,
)
from tests.fakebot import FakeTelegram, User

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

NAMES = ("Ann", "Bob", "Cid", "Dan")


def hidden_from(state: State, seat: int | None) -> set[str]:
    """The cards of the deal ``seat`` (None: the group) may not know now: every card dealt
    that is neither its own, nor face up on the floor, nor was ever face up (captured)."""
    dealt = {c for hand in state.dealt.hands for c in hand} | set(state.dealt.floor)
    face_up = set(state.floor.loose) | {c for h in state.floor.houses.values() for c in h.cards}
    gone = {c for pile in state.piles for c in pile} | set(state.unclaimed)
    own = set(state.hands[seat]) if seat is not None else set()
    return {str(c) for c in dealt - face_up - gone - own}


async def play(tg: FakeTelegram, hub: Hub, users: list[User], watch: Watch, *,
               until_plays: int | None = None) -> None:
    """The robot's moves, made by buttons, until the deal has ``until_plays`` plays (or until
    a deal with plays is scored)."""
    table = only_table(hub)
    scored = len(table.match.outputs)
    rng = random.Random(7)
    while True:
        state = table.match.state
        if len(table.match.outputs) > scored and table.match.outputs[-1]["bid"] is not None:
            return
        if until_plays is not None and state.bid is not None and state.plays >= until_plays:
            return
        seat = state.to_act[0]
        action = robot.choose(state.view(seat), table.match.rules, rng)
        await make(tg, seat_users(hub, users)[seat], action)
        watch.check(hub)


async def test_a_deal_by_buttons_through_a_restart(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    group = tg.add_group("Cards", users)
    db = tmp_path / "bot.db"
    watch = Watch(tg, group, users, hidden_from)
    async with running_bot(tg, db) as hub:
        lobby = await open_table(tg, group, users, game="seep", options={"Bazzis": 1})
        assert "Seep · 4 players · a match of 2 bazzis" in lobby.text
        assert "Partners: Ann & Cid against Bob & Dan" in lobby.text
        await tg.press(users[0], lobby, text="🤝 Change partners")
        await tg.settled(group)
        assert "Partners: Ann & Dan against Cid & Bob" in lobby.text
        for chat in (group, *users):
            watch.shown.new_cards(chat, 0)  # the lobby names 10♦ in an option: before any deal
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle(quiet=QUIET)
        watch.check(hub)
        await play(tg, hub, users, watch, until_plays=20)
        plays = only_table(hub).match.state.plays
        version = only_table(hub).match.version

    async with running_bot(tg, db) as hub:  # a new process on the same database
        table = only_table(hub)
        assert (table.match.version, table.match.state.plays) == (version, plays)
        await play(tg, hub, users, watch)
        await tg.settled(group)
        output = table.match.outputs[-1]
        assert oversized(tg, [group, *users]) == []
        assert button_count(tg, users) > 100

        names = [u.first_name for u in seat_users(hub, users).values()]
        summary = next(t for t in reversed(tg.texts(group)) if t.startswith("Deal "))
        sides = (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")
        for side, points, score in zip(sides, output["card_points"], output["score"],
                                       strict=True):
            assert f"{side}: {points} card points" in summary and f"→ {score}" in summary
        assert "Bazzis:" in summary  # the ledger follows the deal's result

        score = (await command(tg, users[0], group, "/score")).text
        record = await exported(tg, users[0], group)
        report = replay(record)
        assert report["sheet"] == table.match.report()["sheet"]
        assert report["settlement"] == table.match.report()["settlement"]
        played = [d for d in report["deals"] if d.get("bid") is not None
                  and not d.get("unfinished")]
        assert played and played[-1]["score"] == output["score"]
        bazzis = report["sheet"]["bazzis"]
        assert f"Bazzis: {sides[0]} {bazzis[0]} · {sides[1]} {bazzis[1]}" in score
        for name, balance in zip(record["players"], report["settlement"], strict=True):
            assert f"{name}: {signed(balance)}" in score
        for deal in played:
            assert f"{sides[0]} {deal['score'][0]}, {sides[1]} {deal['score'][1]}" in score

        history = (await command(tg, users[1], group, "/history")).text
        assert f"{sides[0]} {output['score'][0]}, {sides[1]} {output['score'][1]}" in history
        rules = (await command(tg, users[2], group, "/rules all")).text
        assert "a match of 2 bazzis" in rules and "10♦ points: 6" in rules
