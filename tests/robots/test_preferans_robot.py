"""The Monte-Carlo Preferans robot: legal everywhere, deciding from the view alone (the
same decision when the cards it cannot see are elsewhere), sound calls and cards.

A small fixed budget without a clock keeps the decisions quick and reproducible."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from bench.robot_bench import contract_made
from engine.preferans import SPEC, Rules, State
from engine.preferans.robot import Budget, choose
from tests.preferans.helpers import act, deal
from tests.robots.helpers import check_view_only, matches, play_out, robot
from tests.robots.preferans import DECLARER, RULE_SETS, STRONG, WEAK, declared_6s, reshuffled

QUICK = Budget(samples=4, seconds=None)
quick = functools.partial(choose, budget=QUICK)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_robots_in_every_seat_finish_deals_with_legal_actions(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    kinds: Counter[str] = Counter()
    for match in matches(SPEC, rules, 4, "legal"):
        play_out(match, robot(quick, rules))
        kinds[match.state.result().kind] += 1
    assert kinds["game"] + kinds["miser"] + kinds["raspasy"] >= 3


def test_robot_contracts_are_made_most_of_the_time() -> None:
    """The bench's duplicate match measures this at the default budget; here, at a small
    budget, a bound well below it."""
    rules = Rules.from_dict({})
    outcomes: Counter[bool] = Counter()
    for match in matches(SPEC, rules, 16, "contracts"):
        play_out(match, robot(quick, rules))
        made = contract_made(match.state.result())
        if made is not None:
            outcomes[made] += 1
    assert outcomes[True] + outcomes[False] >= 8
    assert outcomes[True] / (outcomes[True] + outcomes[False]) >= 0.7, outcomes


@pytest.mark.parametrize("rules_data", [{}, RULE_SETS[5]])
def test_decisions_depend_only_on_the_view(rules_data) -> None:
    check_view_only(SPEC, Rules.from_dict(rules_data), quick, 3, reshuffled)


def test_a_view_without_actions_is_refused() -> None:
    s = deal({})
    with pytest.raises(ValueError, match="no decision"):
        quick(s.view(1), Rules.from_dict({}), random.Random(0))


def test_the_clock_stops_the_sampling() -> None:
    """With no time at all it still decides, from the fewest deals it looks at."""
    s = declared_6s({0: DECLARER}, "7D 8D", "8H,9H")
    act(s, "whist:whist", "whist:whist")
    hurried = choose(s.view(0), s.rules, random.Random(0), Budget(samples=50, seconds=0.0))
    assert hurried in s.legal_actions(0)


# -- the choices themselves (dealer 2: seat 0 is first hand) --------------------------------

def _choice(state: State, seat: int | None = None) -> str:
    seat = state.to_act[0] if seat is None else seat
    return choose(state.view(seat), state.rules, random.Random(0), Budget(12, None))


def test_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    s = deal({0: STRONG, 1: WEAK})
    assert _choice(s) == "bid:6S"
    act(s, "bid:6S")
    assert _choice(s) == "bid:pass"


def test_misere_on_a_hand_the_defenders_cannot_catch() -> None:
    assert _choice(deal({0: "7S 9S JS 7C 9C JC 7D 9D 7H 8H"})) == "bid:miser"


def test_declarer_keeps_his_trumps_and_declares_a_spade_contract() -> None:
    s = deal({0: "AS KS QS JS 10S 9S AC KC AD 7H"}, "8H 7D")
    act(s, "bid:6S", "bid:pass", "bid:pass")
    discard = _choice(s)
    assert "S" not in discard.partition(":")[2].replace("AS", "")  # no spade goes
    act(s, discard)
    assert _choice(s) in ("contract:7S", "contract:8S", "contract:9S", "contract:10S")


def test_whists_a_contract_it_can_set() -> None:
    s = deal({0: "AS KS 7H 8H 9H 10H JH 7C 8C 7D", 1: "AH KH QH AC KC AD KD 9S 10S JS"},
             "8D 9D")
    act(s, "bid:6S", "bid:pass", "bid:pass", "discard:8D,9D", "contract:6H")
    assert _choice(s) == "whist:whist"  # seat 1: the top three trumps and four side winners


def test_does_not_whist_alone_without_a_trick() -> None:
    """After the first defender's pass a whist would answer for four tricks alone."""
    s = declared_6s({0: DECLARER, 2: "8C 9C 10C JC 10D JD 7H 10H JH QH"}, "8D 9D", "8H,9H")
    act(s, "whist:pass")
    assert _choice(s) in ("whist:pass", "whist:halfwhist")


def test_declarer_draws_trumps() -> None:
    s = declared_6s({0: DECLARER}, "7D 8D", "8H,9H")
    act(s, "whist:whist", "whist:whist")
    assert _choice(s).endswith("S")  # a spade: the 7S is out


def test_raspasy_follows_with_the_highest_card_that_still_loses() -> None:
    hands = {0: "10H 8S 9S 10S JS QS KS AS 7C 8C", 1: "7H 9H JH 9C 10C JC 7D 8D 9D 10D"}
    s = deal(hands, variant="rostov")  # the talon stays out: first hand leads
    act(s, "bid:pass", "bid:pass", "bid:pass", "play:10H")
    assert _choice(s) == "play:9H"
