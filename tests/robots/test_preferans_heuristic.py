"""The rule-of-thumb Preferans robot (the benchmark's opponent) and the auto move: legal
everywhere, reading only the view, sound calls and cards, contracts made most of the time."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench.robot_bench import contract_made
from engine.preferans import SPEC, Rules, State
from engine.preferans.robot import auto_action
from engine.preferans.robot.heuristic import choose
from tests.preferans.helpers import act, deal
from tests.robots.helpers import (
    auto_phases,
    check_view_only,
    matches,
    play_out,
    robot,
)
from tests.robots.preferans import (
    DECLARER,
    RULE_SETS,
    STRONG,
    WEAK,
    declared_6s,
    reshuffled,
)

RNG = random.Random(0)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_robots_in_every_seat_finish_deals_with_legal_actions(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    kinds: Counter[str] = Counter()
    for match in matches(SPEC, rules, 40, "legal"):
        play_out(match, robot(choose, rules))
        kinds[match.state.result().kind] += 1
    assert kinds["game"] > 5 and kinds["raspasy"] > 5


def test_robot_contracts_are_made_at_least_three_times_in_four() -> None:
    """The bench measures 1,000 deals (about 89%); 300 here, with a bound well above the
    issue's 70% but several standard deviations below the measured rate."""
    rules = Rules.from_dict({})
    outcomes: Counter[bool] = Counter()
    for match in matches(SPEC, rules, 300, "contracts"):
        play_out(match, robot(choose, rules))
        made = contract_made(match.state.result())
        if made is not None:
            outcomes[made] += 1
    total = outcomes[True] + outcomes[False]
    assert total > 100
    assert outcomes[True] / total >= 0.78, outcomes


@pytest.mark.parametrize("rules_data", [{}, RULE_SETS[5]])
def test_decisions_depend_only_on_the_view(rules_data) -> None:
    check_view_only(SPEC, Rules.from_dict(rules_data), choose, 25, reshuffled)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_auto_action_is_legal_in_every_phase(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    phases = auto_phases(SPEC, rules, auto_action, 60)
    assert set(phases) >= {"bidding", "discard", "contract", "whist", "play"}


def test_auto_moves_alone_finish_deals() -> None:
    rules = Rules.from_dict({})
    for match in matches(SPEC, rules, 20, "auto-only"):
        play_out(match, lambda s, seat: auto_action(s.view(s.controller(seat)), rules))
        assert match.state.result().kind == "raspasy"  # everyone passes


def test_a_view_without_actions_is_refused() -> None:
    s = deal({})
    with pytest.raises(ValueError, match="no decision"):
        choose(s.view(1), Rules.from_dict({}), RNG)


# -- the choices themselves (dealer 2: seat 0 is first hand) --------------------------------

def _choice(state: State, seat: int | None = None) -> str:
    seat = state.to_act[0] if seat is None else seat
    return choose(state.view(seat), state.rules, RNG)


def test_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    s = deal({0: STRONG, 1: WEAK})
    assert _choice(s) == "bid:6S"
    act(s, "bid:6S")
    assert _choice(s) == "bid:pass"


def test_misere_only_on_a_hand_the_defenders_cannot_catch() -> None:
    safe = "7S 9S JS 7C 9C JC 7D 9D 7H 8H"
    assert _choice(deal({0: safe})) == "bid:miser"
    caught = "7S 9S JS 7C 9C JC 7D 9D 7H AH"  # the ace of hearts would take a trick
    assert _choice(deal({0: caught})) == "bid:pass"


def test_declarer_discards_the_useless_cards_and_declares_the_bid() -> None:
    s = deal({0: "AS KS QS JS 10S 9S AC KC AD 7H"}, "8H 7D")
    act(s, "bid:6S", "bid:pass", "bid:pass")
    assert _choice(s) == "discard:7D,7H"
    act(s, "discard:7D,7H")
    contract = _choice(s)
    assert contract in ("contract:6S", "contract:7S", "contract:8S")


def test_whists_with_defensive_tricks_and_passes_without() -> None:
    s = declared_6s({0: DECLARER, 1: "AH KH AD KD AC 8C 10C QC JC 7D"}, "8D 9D", "8H,9H")
    assert _choice(s) == "whist:whist"  # seat 1: three aces, two kings
    act(s, "whist:whist")
    assert _choice(s) == "whist:pass"  # seat 2: no sure trick
    assert auto_action(s.view(2), s.rules) == "whist:pass"


def test_declarer_draws_trumps_with_a_master_trump() -> None:
    s = declared_6s({0: DECLARER}, "7D 8D", "8H,9H")
    act(s, "whist:whist", "whist:whist")
    assert _choice(s) == "play:AS"  # the 7S is out


def test_defenders_win_cheaply_and_do_not_overtake_each_other() -> None:
    s = declared_6s({0: "AS KS QS JS 10S 9S 8S 7C 7D 8D",
                      1: "AH JH 7S 8C 9C 10C JC QC KC AC",
                      2: "KH 7H 10H 9H 9D 10D JD QD KD AD"}, "8H QH", "8H,QH")
    act(s, "whist:whist", "whist:whist", "play:7C")
    assert _choice(s) == "play:8C"  # any club wins over the 7: the cheapest does
    act(s, "play:8C")
    assert _choice(s) == "play:7H"  # partner holds the trick: the lowest card goes


def test_raspasy_follows_with_the_highest_card_that_still_loses() -> None:
    hands = {0: "10H 8S 9S 10S JS QS KS AS 7C 8C", 1: "7H 9H JH 9C 10C JC 7D 8D 9D 10D"}
    s = deal(hands, variant="rostov")  # the talon stays out: first hand leads
    act(s, "bid:pass", "bid:pass", "bid:pass", "play:10H")
    assert _choice(s) == "play:9H"
    assert auto_action(s.view(1), s.rules) == "play:7H"


def test_raspasy_void_hand_throws_its_most_dangerous_card() -> None:
    hands = {0: "10H 8S 9S 10S JS QS KS 7C 8C 9C", 1: "AS 7D 8D 9D 10D JD QD KD AD 10C"}
    s = deal(hands, variant="rostov")
    act(s, "bid:pass", "bid:pass", "bid:pass", "play:10H")
    assert _choice(s) == "play:AS"  # a lone ace: the card that would take a trick


def test_auto_passes_in_the_auction_and_plays_the_lowest_card() -> None:
    s = deal({0: STRONG})
    assert auto_action(s.view(0), s.rules) == "bid:pass"
