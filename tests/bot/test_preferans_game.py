"""Preferans end to end through the real bot: every kind of deal by button presses alone (no
chat shown a card hidden from it after any press), then /score and /export agree with
`python -m engine replay`. The deals are played in three matches side by side (xdist): each
deal's every press waits for the private chats' budget (3 calls in 3 s), one match of them
all would take minutes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.telegram.context import BotData as Hub
from engine.preferans.state import State
from tests.bot.harness import act, open_table, running_bot, toggle_conventions
from tests.bot.privacy import Privacy
from tests.fakebot import FakeTelegram, User

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

# What each scripted deal does: (first bidder's call, whist calls, open choice, contract).
INTENTS = {
    "raspasy": ("pass", (), None, None),
    "whist_and_pass": ("6S", ("whist", "pass"), False, "6S"),
    "two_whists": ("6S", ("whist", "whist"), None, "7S"),
    "half_whist": ("6S", ("pass", "halfwhist", "pass"), None, "6S"),
    "open": ("6S", ("pass", "whist"), True, "6H"),
    "returned": ("6S", ("pass", "halfwhist", "whist", "pass"), True, "6S"),
    "both_pass": ("6S", ("pass", "pass"), None, "8D"),
    "miser": ("miser", (), None, "miser"),
    "walkaway": ("6S", (), None, "walkaway"),
}

# Three deals a match: two played out and one decided before the play.
MATCHES = (("raspasy", "whist_and_pass", "half_whist"),
           ("two_whists", "open", "both_pass"),
           ("returned", "miser", "walkaway"))


def kind_of(intent: str) -> str:
    """The kind of deal the scripted ``intent`` makes."""
    contract = INTENTS[intent][3]
    return {None: "raspasy", "miser": "miser", "walkaway": "walkaway"}.get(contract, "game")


def test_the_matches_play_every_kind_of_deal() -> None:
    assert sorted(i for deals in MATCHES for i in deals) == sorted(INTENTS)
    assert {kind_of(i) for i in INTENTS} == {"raspasy", "game", "miser", "walkaway"}


def choose(state: State, intent: str, opener: int) -> str:
    """The scripted action for the seat to act (the first legal card in play)."""
    call, whists, open_choice, contract = INTENTS[intent]
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    if state.phase == "bidding":
        wanted = f"bid:{call}" if seat == opener and not state.auction.calls else "bid:pass"
        if seat == opener and state.auction.calls and seat not in state.auction.passed:
            wanted = "bid:pass"
        return wanted if wanted in legal else "bid:pass"
    if state.phase == "discard":
        return legal[0]
    if state.phase == "contract":
        return f"contract:{contract}"
    if state.phase == "whist":
        return f"whist:{whists[len(state.whisting.calls)]}"
    if state.phase == "open":
        return f"open:{'true' if open_choice else 'false'}"
    return legal[0]


async def play_deal(tg: FakeTelegram, hub: Hub, users: list[User], intent: str,
                    after: Callable[[], None] = lambda: None) -> dict:
    """Play one scripted deal through the buttons; ``after`` runs after every press."""
    table = next(iter(hub.services.tables.values()))
    deals_before = len(table.match.outputs)
    state = table.match.state
    opener = state.to_act[0]
    while len(table.match.outputs) == deals_before:
        state = table.match.state
        seat = state.to_act[0]
        user = users[state.controller(seat)]
        await act(tg, user, choose(state, intent, opener))
        after()
    return table.match.outputs[-1]


async def score_text(tg: FakeTelegram, user: User, group) -> str:
    tg.send(user, group, "/score")
    await tg.settled(group)
    return tg.last_message(group).text


def replay(record: dict) -> dict:
    done = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=json.dumps(record),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("deals", MATCHES, ids=[deals[0] for deals in MATCHES])
@pytest.mark.parametrize("players", [3, 4])
async def test_every_kind_of_deal_by_buttons(tg: FakeTelegram, tmp_path: Path, players: int,
                                             deals: tuple[str, ...]) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan")[:players]]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        options = {"Players": 1} if players == 4 else {}
        await open_table(tg, group, users, options=options)
        await toggle_conventions(tg, group, users[0], ("Walk away",))
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        privacy = Privacy(tg, hub, users, group)  # no chat is shown a card hidden from it
        privacy.check()
        kinds = []
        for intent in deals:
            output = await play_deal(tg, hub, users, intent, after=privacy.check)
            kinds.append(output["kind"])
        assert kinds == [kind_of(intent) for intent in deals]
        table = next(iter(hub.services.tables.values()))
        score = await score_text(tg, users[0], group)
        tg.send(users[0], group, "/export")
        await tg.settled(group)
        document = tg.last_message(group)
        assert document.file is not None
        record = json.loads(document.file.data)
        report = replay(record)
        assert report["sheet"] == table.match.report()["sheet"]
        assert report["settlement"] == table.match.report()["settlement"]
        assert [d["kind"] for d in report["deals"][:len(kinds)]] == kinds
        for name, balance in zip(record["players"], report["settlement"], strict=True):
            assert name in score
            shown = f"{balance:+g}" if balance else "0"
            assert shown in score
