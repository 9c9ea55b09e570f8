"""Claims (issue 34, docs/records-claims.md): listed only where the rules allow them and
for the claimer's turn; accepted by every opponent, the deal ends with the tricks as
claimed; refused, play goes on (one claim a trick); a claim the solver proves for every
lie of the unseen cards stands at once with ``auto_claims``; the lone whister of open
play claims for the defence; and records with claims replay identically."""

from __future__ import annotations

import json

import pytest

from engine.base import IllegalAction
from engine.match import Match
from engine.preferans import SPEC, Rules
from engine.preferans.state import State
from engine.records import replay
from tests.preferans.helpers import act, deal

# Seat 0 (first hand) holds every spade and the top hearts: 10 tricks in spades, sure.
STRONG = {0: "AS KS QS JS 10S 9S 8S 7S AH KH"}
# Seat 0 with a middling hand: claiming all ten is not proved.
MIDDLING = {0: "AS KS QS 7S 8S AH 7H 8H 7D 8D"}


def _declared(hands: dict[int, str], whists: tuple[str, str] = ("whist", "whist"),
              open_play: bool | None = None, **rules: object) -> State:
    """Seat 0 declares 6♠ after the others pass (the talon discarded), the defenders call
    ``whists``; play begins."""
    state = deal(hands, claims=True, **rules)
    act(state, "bid:6S", "bid:pass", "bid:pass")
    act(state, "discard:" + ",".join(str(c) for c in state.talon), "contract:6S")
    act(state, *[f"whist:{w}" for w in whists])
    if open_play is not None:
        act(state, f"open:{'true' if open_play else 'false'}")
    assert state.phase == "play" and state.to_act == (0,)
    return state


def test_no_claims_unless_the_rules_allow_them() -> None:
    state = deal(STRONG)
    act(state, "bid:6S", "bid:pass", "bid:pass")
    act(state, "discard:" + ",".join(str(c) for c in state.talon), "contract:6S",
        "whist:whist", "whist:whist")
    assert not [a for a in state.legal_actions(0) if a.startswith("claim:")]
    with pytest.raises(IllegalAction, match="may not claim"):
        state.apply(0, "claim:10")


def test_the_declarer_claims_at_his_turn_only() -> None:
    state = _declared(STRONG)
    assert [a for a in state.legal_actions(0) if a.startswith("claim:")] == [
        f"claim:{n}" for n in range(11)]
    act(state, "play:AS")
    assert not [a for a in state.legal_actions(1) if a.startswith("claim:")]
    assert state.check(1, "claim:3") is not None


def test_an_accepted_claim_ends_the_deal_as_claimed() -> None:
    state = _declared(STRONG)
    act(state, "play:AS")
    act(state, state.legal_actions(1)[0])
    act(state, state.legal_actions(2)[0])
    assert state.tricks[0] == 1 and state.to_act == (0,)
    events = state.apply(0, "claim:8")  # concedes one of the nine left
    assert [e.kind for e in events] == ["claim"] and state.phase == "claim"
    claim = state.view(None)["claim"]
    assert claim["seat"] == 0 and claim["tricks"] == 8 and len(claim["hand"]) == 9
    assert state.view(2)["claim"]["hand"] == claim["hand"]  # shown to everyone
    assert state.to_act == (1, 2)
    state.apply(2, "answer:accept")
    assert state.phase == "claim" and state.to_act == (1,)
    events = state.apply(1, "answer:accept")
    assert [e.kind for e in events] == ["claim_answer", "claim_accepted", "deal_over"]
    assert state.finished and state.tricks == [9, 1, 0]  # the conceded trick: first whister
    assert state.result().played and state.view(None)["claims"][0]["outcome"] == "accepted"


def test_a_refused_claim_lets_play_go_on_and_waits_for_the_next_trick() -> None:
    state = _declared(MIDDLING)
    state.apply(0, "claim:10")
    state.apply(1, "answer:refuse")
    assert state.phase == "play" and state.to_act == (0,) and state.claim is None
    assert state.view(None)["claims"] == [{"seat": 0, "tricks": 10, "trick": 1,
                                           "outcome": "refused"}]
    assert not [a for a in state.legal_actions(0) if a.startswith("claim:")]
    with pytest.raises(IllegalAction):
        state.apply(0, "claim:9")


def test_a_proved_claim_stands_at_once_with_auto_claims() -> None:
    """After six top spades the declarer's 8♠ 7♠ A♥ K♥ take the last four whatever the
    defenders hold (70 lies); with ten cards each unseen (184,756 lies) nothing is tried."""
    state = _declared(STRONG, auto_claims=True)
    state.apply(0, "claim:10")
    state.apply(1, "answer:refuse")
    for card in ("AS", "KS", "QS", "JS", "10S", "9S"):
        act(state, f"play:{card}")
        act(state, state.legal_actions(1)[0])
        act(state, state.legal_actions(2)[0])
    events = state.apply(0, "claim:4")
    assert [e.kind for e in events] == ["claim", "claim_accepted", "deal_over"]
    assert events[1].data["proved"] and state.tricks[0] == 10 and state.finished


def test_a_claim_not_proved_is_answered_even_with_auto_claims() -> None:
    state = _declared(MIDDLING, auto_claims=True)
    state.apply(0, "claim:10")
    assert state.phase == "claim"


def test_the_lone_whister_in_open_play_claims_for_the_defence() -> None:
    state = _declared({}, whists=("whist", "pass"), open_play=True)
    act(state, state.legal_actions(0)[0])
    whister = state.whisting.whisters[0]
    mover = state.to_act[0]
    assert state.controller(mover) == whister
    assert f"claim:{10}" in state.legal_actions(mover)
    state.apply(mover, "claim:0")  # concedes every trick to the declarer
    assert state.to_act == (0,)
    state.apply(0, "answer:accept")
    assert state.tricks[0] == 10


def test_a_record_with_claims_replays_identically() -> None:
    rules = Rules.from_dict({"claims": True, "auto_claims": True})
    match = Match(SPEC, rules, ["Ann", "Bob", "Cid"], 2)
    match.start_deal(deal=_declared(STRONG).deal_record())
    for seat, action in [(0, "bid:6S"), (1, "bid:pass"), (2, "bid:pass")]:
        match.apply(seat, action)
    state = match.state
    match.apply(0, "discard:" + ",".join(str(c) for c in state.talon))
    for seat, action in [(0, "contract:6S"), (1, "whist:whist"), (2, "whist:whist"),
                         (0, "claim:10")]:
        match.apply(seat, action)
    record = json.loads(json.dumps(match.record()))
    assert {"seat": 0, "claim": 10} in record["deals"][0]["actions"]
    again = replay(record)
    assert again.report() == match.report() and again.record() == record
