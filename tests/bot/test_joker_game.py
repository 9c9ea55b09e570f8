"""Joker end to end through the real bot: the whole first pulka (deals of 1 to 8 cards) made
by button presses alone, through a restart of the bot in the middle, to its premium; then
/score against `python -m engine replay` of the /export. After every move no chat has been
shown a card the rules still hide from it, and every button's data fits in 64 bytes.

The choices are scripted so that a premium is certain: every play is a pseudo-random legal
play that does not depend on the bids (a joker whenever one may be played, so that the
declarations are made by buttons too), and the first seat bids exactly the tricks those
plays will give it, found by playing the deal out on a copy first."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from bot.telegram.context import BotData as Hub
from bot.ui.balances import signed
from engine.joker.state import CHOOSER_SEES, State
from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import (
    QUIET,
    Watch,
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
EXACT = 0  # the seat that makes every bid of the pulka
PULKA = 8  # deals in the first pulka of the standard schedule


def hidden_from(state: State, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: the group) may not know now: the others' hands, and before
    the trump is chosen every card but the first three dealt (jokers are all alike)."""
    hidden = set()
    for other in range(state.n):
        if state.phase == "trump":
            hidden |= set(state.dealt[other][CHOOSER_SEES if other == seat else 0:])
        elif other != seat:
            hidden |= set(state.hands[other])
    return {str(c) for c in hidden if not c.is_joker}


def play_choice(state: State) -> str:
    """A legal play chosen from the deal's position only, never from the bids."""
    legal = state.legal_actions(state.to_act[0])
    jokers = [a for a in legal if a.startswith("play:JK")]
    rng = random.Random(f"{state.context.number}:{sum(state.tricks)}:{len(state.trick)}")
    return rng.choice(jokers or legal)


def tricks_ahead(state: State) -> list[int]:
    """The tricks each seat will take when every play is ``play_choice``'s."""
    sim = copy.deepcopy(state)
    while sim.phase != "play":
        seat = sim.to_act[0]
        sim.apply(seat, sim.legal_actions(seat)[0])
    while not sim.finished:
        sim.apply(sim.to_act[0], play_choice(sim))
    return sim.tricks


def choose(state: State) -> str:
    """The scripted action: the exact bid for EXACT, small bids that leave it legal for the
    others, ``play_choice`` in play."""
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    if state.phase == "trump":
        return legal[0]
    if state.phase == "play":
        return play_choice(state)
    target = tricks_ahead(state)[EXACT]
    if seat == EXACT:
        return f"bid:{target}"
    left = [s for s in range(state.n) if state.bids[s] is None and s != seat]
    last_before_dealer = state.dealer == EXACT and left == [EXACT]
    so_far = sum(b for b in state.bids if b is not None)
    bids = [int(a.split(":")[1]) for a in legal]
    bid = next(b for b in bids if not last_before_dealer or so_far + b + target != state.cards)
    return f"bid:{bid}"


async def play(tg: FakeTelegram, hub: Hub, users: list[User], watch: Watch, *,
               deals: int, plays: int = 0) -> int:
    """Scripted actions by buttons until ``deals`` deals are scored and ``plays`` cards of
    the next are played; the jokers played."""
    match = only_table(hub).match
    jokers = 0
    while len(match.outputs) < deals or (
            not match.over and len(match.state.trick) + 4 * sum(match.state.tricks) < plays):
        state = match.state
        action = choose(state)
        await make(tg, seat_users(hub, users)[state.to_act[0]], action)
        jokers += action.startswith("play:JK")
        watch.check(hub)
    return jokers


async def test_the_first_pulka_by_buttons_through_a_restart(tg: FakeTelegram,
                                                           tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES]
    group = tg.add_group("Cards", users)
    db = tmp_path / "bot.db"
    watch = Watch(tg, group, users, hidden_from)
    async with running_bot(tg, db) as hub:
        lobby = await open_table(tg, group, users, game="joker")
        assert "Joker · 4 players · 24: 1 to 8 cards and nines" in lobby.text
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle(quiet=QUIET)
        watch.check(hub)
        jokers = await play(tg, hub, users, watch, deals=5, plays=6)
        version = only_table(hub).match.version

    async with running_bot(tg, db) as hub:  # a new process on the same database
        match = only_table(hub).match
        assert match.version == version and len(match.state.trick) == 2
        jokers += await play(tg, hub, users, watch, deals=PULKA)
        await tg.settled(group)
        assert jokers > 0
        assert oversized(tg, [group, *users]) == []

        names = [u.first_name for u in seat_users(hub, users).values()]
        report = match.report()
        pulka = report["pulkas"][0]
        assert pulka["premium"][EXACT] > 0
        assert pulka["premium"][EXACT] == max(out["points"][EXACT] for out in report["deals"])
        end = next(t for t in reversed(tg.texts(group)) if "Pulka 1 is over" in t)
        assert end.startswith(f"Deal {PULKA} · 8-card deal · trump ")
        assert (f"{names[EXACT]}: {pulka['sums'][EXACT]} {signed(pulka['premium'][EXACT])} = "
                f"{pulka['totals'][EXACT]} ⭐ premium") in end
        for seat, name in enumerate(names):
            assert f"{name}: {pulka['sums'][seat]}" in end
        before = next(t for t in tg.texts(group) if t.startswith(f"Deal {PULKA - 1} · "))
        sums = [sum(out["points"][s] for out in report["deals"][:PULKA - 1]) for s in range(4)]
        assert "Pulka 1 so far: " + " · ".join(  # the running totals after every deal
            f"{n} {t}" for n, t in zip(names, sums, strict=True)) in before

        score = (await command(tg, users[0], group, "/score")).text
        record = await exported(tg, users[0], group)
        replayed = replay(record)
        assert replayed["pulkas"][0] == pulka
        assert replayed["sheet"] == report["sheet"]
        assert replayed["settlement"] == report["settlement"]
        assert "Pulka 1: " + " · ".join(
            f"{n} {t}" for n, t in zip(names, pulka["totals"], strict=True)) in score
        assert f"premium: {names[EXACT]} {signed(pulka['premium'][EXACT])}" in score
        for name, balance in zip(record["players"], replayed["settlement"], strict=True):
            assert f"{name}: {signed(balance)}" in score

        history = (await command(tg, users[1], group, "/history")).text
        last = replayed["deals"][PULKA - 1]
        assert f"Deal {PULKA} (8-card deal, " in history
        assert (f"{names[EXACT]} {last['bids'][EXACT] or 'pass'}/{last['tricks'][EXACT]} "
                f"{signed(last['points'][EXACT])}") in history
