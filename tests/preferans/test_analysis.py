"""Deal analysis (issue 34): par and costly cards against the brute-force solver on every
position of the last four tricks of random deals (contracts, misère, raspasy, 3 and 4
players); the solver's position of a deal in play (``layout``) against the engine itself,
by playing the best cards out; and the analysis of records and their whist costs."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.preferans.analysis import analyse, card_play, par
from engine.preferans.dds import Goal, values
from engine.preferans.position import counted, goal, layout
from engine.preferans.result import DealContext
from engine.preferans.rules import Rules
from engine.preferans.state import PLAY, State
from engine.records import parse_json
from tests.preferans.dds_brute import brute_tricks, brute_values
from tests.preferans.helpers import NAMES

KINDS = ("game", "miser", "raspasy")
RECORDS = Path(__file__).parent.parent / "records"


def _to_play(kind: str, seed: int, players: int, rng: random.Random) -> State | None:
    """A deal of ``kind`` at the start of trick play (None if nobody whisted)."""
    rules = Rules.from_dict({"players": players})
    state = State.new(rules, NAMES[:players], DealContext(players - 1), seed=seed)
    while state.phase != PLAY:
        if state.finished:
            return None
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if state.phase == "bidding":
            opening = not state.auction.calls and kind != "raspasy"
            action = f"bid:{'miser' if kind == 'miser' else '6S'}" if opening else "bid:pass"
        elif state.phase == "contract":
            action = rng.choice([a for a in legal if a != "contract:walkaway"])
        else:
            action = rng.choice(legal)
        state.apply(seat, action)
    return state


def _random_plays(state: State, rng: random.Random) -> list[tuple[int, str]]:
    """Random legal cards to the deal's end, played on a copy."""
    state = copy.deepcopy(state)
    plays = []
    while not state.finished:
        action = rng.choice(state.legal_actions(state.to_act[0]))
        plays.append((state.to_act[0], action))
        state.apply(state.to_act[0], action)
    return plays


def _endings(seed: int) -> list[tuple[State, list[tuple[int, str]]]]:
    """Random deals of every kind, for 3 and 4 players, with four tricks left to play and
    random cards to play them."""
    rng = random.Random(seed)
    out = []
    for k in range(12):
        kind = KINDS[k % 3]
        state = _to_play(kind, seed * 100 + k, 3 + k % 2, rng)
        if state is None:
            continue
        while state.tricks_done < 6:
            state.apply(state.to_act[0], rng.choice(state.legal_actions(state.to_act[0])))
        out.append((state, _random_plays(state, rng)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_par_and_costly_cards_agree_with_brute_force(seed: int) -> None:
    for start, plays in _endings(seed):
        analysed = card_play(start, plays)
        assert len(analysed) == len(plays)
        state = copy.deepcopy(start)
        for (seat, action), play in zip(plays, analysed, strict=True):
            mover = state.order[0]
            taken = state.tricks[counted(state, mover)]
            found = brute_values(layout(state), goal(state, mover))
            brute = {c: taken + v for c, v in found.items()}
            assert dict(play.worth) == brute
            assert play.seat == mover and str(play.card) == action.partition(":")[2]
            wants_up = state.declarer is not None and (mover == state.declarer) != (
                state.contract == "miser")
            best = max(brute.values()) if wants_up else min(brute.values())
            assert play.cost == abs(best - brute[play.card])
            assert brute[play.kept] == best
            assert par(state, mover) == taken + brute_tricks(layout(state), goal(state, mover))
            state.apply(seat, action)


def _best_play_out(state: State, seat: int) -> int:
    """Play the deal out: ``seat``'s side keeps the par, the others play against it; the
    counted tricks at the end."""
    state = copy.deepcopy(state)
    who = counted(state, seat)
    target = goal(state, seat)
    while not state.finished:
        mover = state.order[0]
        found = values(layout(state), target)
        mover_maxes = state.active.index(mover) in target.maxers
        card = (max if mover_maxes else min)(found, key=lambda c: (found[c], c.sort_key()))
        state.apply(mover, f"play:{card}")
    return state.tricks[who]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("kind", KINDS)
def test_best_play_in_the_engine_takes_the_par(kind: str, players: int) -> None:
    """The solver's position of a deal in play is the engine's: best play from the first
    card (raspasy talon leads included) ends with the par."""
    rng = random.Random(f"{kind}{players}")
    checked = 0
    for seed in range(40):
        state = _to_play(kind, seed, players, rng)
        if state is None:
            continue
        seats = state.active if state.declarer is None else (state.declarer,)
        for seat in seats:
            assert _best_play_out(state, seat) == par(state, seat)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def _deal_of(record: dict, index: int) -> dict | None:
    return analyse(Rules.from_dict(record["rules"]), record["players"],
                   DealContext(record["deals"][index]["dealer"]), record["deals"][index])


def test_a_defenders_costly_card_in_whists() -> None:
    """The Sochi record's third deal, 9♣ by seat 2: the declarer could take only 3 with
    every hand open and took 5, since seat 1's K♥ at trick 4 gave away two tricks."""
    record = parse_json((RECORDS / "preferans_sochi.json").read_text())
    found = _deal_of(record, 2)
    assert found is not None
    assert found["par"] == 3 and found["tricks"][2] == 5
    costly, = found["costly"]
    assert (costly["trick"], costly["seat"], costly["card"], costly["tricks"]) == (4, 1, "KH", 2)
    assert costly["kept"] == "9H" and costly["whists"] > 0


def test_the_command_line_prints_every_deal() -> None:
    done = subprocess.run([sys.executable, "-m", "engine", "analyse",
                           str(RECORDS / "preferans_sochi_4p.json")],
                          capture_output=True, text=True, check=True)
    doc = json.loads(done.stdout)
    record = parse_json((RECORDS / "preferans_sochi_4p.json").read_text())
    assert doc["game"] == "preferans" and len(doc["deals"]) == len(record["deals"])
    kinds = {d["kind"] for d in doc["deals"]}
    assert kinds >= {"game", "raspasy", "miser"}
    raspasy = next(d for d in doc["deals"] if d["kind"] == "raspasy")
    assert [f is None for f in raspasy["fewest"]] == [s == record["deals"][1]["dealer"]
                                                       for s in range(4)]


def test_a_game_without_analysis_is_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "engine", "analyse",
                           str(RECORDS / "seep_worked_s11.json")], capture_output=True, text=True)
    assert done.returncode == 2 and "no deal analysis" in done.stderr


def test_the_goal_of_a_raspasy_player_is_his_own_tricks() -> None:
    state = _to_play("raspasy", 1, 3, random.Random(1))
    assert state is not None
    assert goal(state, state.active[1]) == Goal.avoid(1)
