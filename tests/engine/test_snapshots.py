"""A match resumed from a snapshot taken at a deal's end, with only the deals after it
replayed, is the match a full replay gives: same sheet, report, version, deal count and
views, and it plays on the same. Random games of every game kind and player count."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.base import WrongPhase
from engine.games import GAMES
from engine.match import Match
from engine.records import replay
from tests.engine.test_conformance import BASES

CASES = [(game, data) for game, spread in BASES.items() for data in spread]
MAX_DEALS = {"preferans": 10, "joker": 14, "seep": 6}


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def random_record(game: str, data: dict[str, Any], seed: int) -> dict[str, Any]:
    """A game of at least two deals played at random, cut inside its last deal (or not)."""
    spec = GAMES[game]
    rules = spec.rules.from_dict(data)
    rng = random.Random(seed)
    match = Match(spec, rules, [f"P{i}" for i in range(rules.players)],
                  spec.first_dealer(rules, 0, rng))
    count = rng.randint(2, MAX_DEALS[game])
    for k in range(count):
        if match.over:
            break
        match.start_deal(seed=f"{seed}/{k}")
        cut = rng.randrange(60) if k == count - 1 and rng.random() < 0.7 else None
        steps = 0
        while match.in_deal and steps != cut:
            state = match.state
            assert state is not None
            seat = state.to_act[0]
            match.apply(seat, spec.random_action(state, seat, rng))
            steps += 1
    return match.record()


def looks(match: Match) -> dict[str, Any]:
    """Everything a table shows or decides from its match."""
    state = match.state
    seats = range(len(match.players))
    return through_json({
        "report": match.report(), "version": match.version, "deals": match.deal_count,
        "over": match.over, "in_deal": match.in_deal, "outputs": match.outputs,
        "sheet": match.sheet.to_data(), "context": repr(match.sheet.next_context())
        if not match.over else None,
        "views": None if state is None else [state.view(s) for s in [*seats, None]],
        "to_act": None if state is None else list(state.to_act),
    })


def play_on(match: Match, seed: int, steps: int) -> None:
    """The same random continuation for any two equal matches."""
    rng = random.Random(seed)
    for k in range(steps):
        if match.over:
            return
        if not match.in_deal:
            match.start_deal(seed=f"on/{seed}/{k}")
            continue
        state = match.state
        assert state is not None
        seat = state.to_act[0]
        match.apply(seat, match.spec.random_action(state, seat, rng))


@pytest.mark.parametrize(("game", "data"), CASES, ids=[f"{g}-{i}" for i, (g, _) in
                                                        enumerate(CASES)])
def test_snapshot_and_full_replay_agree(game: str, data: dict[str, Any]) -> None:
    for seed in range(2):
        record = through_json(random_record(game, data, seed))
        full = replay(record)
        header = {k: record[k] for k in ("game", "rules", "players")}
        deals = record["deals"]
        ends = [j for j in range(len(deals)) if j < len(deals) - 1 or not full.in_deal]
        assert ends, "every game has a finished deal"
        for j in ends:
            before = replay({**header, "deals": deals[: j + 1]})
            snapshot = through_json(before.snapshot())
            resumed = replay({**header, "deals": deals[j + 1:]}, snapshot=snapshot,
                             outputs=through_json(before.outputs))
            assert resumed.earlier == j + 1
            assert_same(resumed, full, tail=j < len(deals) - 1)
        play_on(resumed, seed, 400)
        play_on(full, seed, 400)
        assert_same(resumed, full, tail=resumed.state is not None)


def assert_same(resumed: Match, full: Match, *, tail: bool) -> None:
    """``tail``: a deal was replayed after the snapshot; else the resumed match has no deal
    state (it is between deals: the bot deals the next one at once)."""
    if tail:
        assert looks(resumed) == looks(full)
    else:
        assert resumed.state is None and full.state is not None and full.state.finished
        assert looks(resumed) == {**looks(full), "views": None, "to_act": None}


def test_a_snapshot_is_taken_between_deals_only() -> None:
    record = random_record("preferans", {}, 3)
    match = replay({**record, "deals": record["deals"][:1]})
    snapshot = match.snapshot()
    match.start_deal(seed=1)
    with pytest.raises(WrongPhase):
        match.snapshot()
    resumed = Match.resume(match.spec, match.rules, match.players, snapshot,
                           match.outputs)
    with pytest.raises(ValueError):  # it holds no record of the deals before its snapshot
        resumed.record()
    with pytest.raises(ValueError, match="deal outputs"):
        Match.resume(match.spec, match.rules, match.players, snapshot, [])
