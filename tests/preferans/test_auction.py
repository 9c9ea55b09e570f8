"""Spec section 4: the ladder, no jumps, misère only as a first call, "here", all-pass."""

import pytest

from engine.base import IllegalAction, MalformedAction, NotYourTurn, WrongPhase
from engine.preferans.bids import LADDER, bid_rank
from tests.preferans.helpers import act, deal, snapshot


def test_ladder_ranks() -> None:
    assert bid_rank("6S") == 0 and bid_rank("8NT") == 14
    assert bid_rank("miser") == 15 and bid_rank("9S") == 16 and bid_rank("10NT") == 25
    assert len(LADDER) == 26


def test_first_hand_opens_at_min_bid_only() -> None:
    s = deal({})
    assert s.to_act == (0,)  # dealer 2: first hand is seat 0
    assert s.legal_actions(0) == ["bid:pass", "bid:6S", "bid:miser"]
    with pytest.raises(IllegalAction, match="opens at 6♠"):
        s.apply(0, "bid:7S")


def test_opening_in_raspasy_state_two_is_seven_spades() -> None:
    s = deal({}, min_bid="7S")
    assert s.legal_actions(0) == ["bid:pass", "bid:7S", "bid:miser"]


def test_no_jumps_each_bid_is_the_next_step() -> None:
    s = deal({})
    act(s, "bid:6S")
    assert s.legal_actions(1) == ["bid:pass", "bid:6C", "bid:miser"]
    with pytest.raises(IllegalAction, match="next bid is 6♣"):
        s.apply(1, "bid:6D")
    act(s, "bid:6C", "bid:6D", "bid:6H", "bid:6NT", "bid:7S")
    assert s.auction.winning_bid == "7S"


def test_bid_jumps_option_allows_any_higher_bid_but_opens_at_min() -> None:
    s = deal({}, bid_jumps=True)
    with pytest.raises(IllegalAction):
        s.apply(0, "bid:7S")
    act(s, "bid:6S", "bid:8H")
    assert s.auction.winning_bid == "8H"
    assert "bid:9S" in s.legal_actions(2) and "bid:8NT" in s.legal_actions(2)
    assert "bid:8H" not in s.legal_actions(2)


def test_after_eight_no_trump_the_next_trick_bid_is_nine_spades() -> None:
    s = deal({})
    act(s, "bid:pass", *[f"bid:{b}" for b in LADDER[:15]])  # seats 1 and 2 climb to 8NT
    assert s.auction.winning_bid == "8NT" and s.auction.holder == 1
    assert s.legal_actions(2) == ["bid:pass", "bid:9S"]
    act(s, "bid:9S")
    assert s.legal_actions(1) == ["bid:pass", "bid:here", "bid:9C"]


def test_a_player_who_has_not_spoken_may_still_bid_miser_over_eight() -> None:
    s = deal({}, bid_jumps=True)
    act(s, "bid:6S", "bid:8NT")
    assert s.legal_actions(2)[-1] == "bid:miser"
    act(s, "bid:miser")
    assert s.auction.winning_bid == "miser"


def test_miser_only_as_a_first_call() -> None:
    s = deal({})
    act(s, "bid:6S", "bid:pass", "bid:pass")
    assert s.phase == "discard" and s.declarer == 0
    s = deal({})
    act(s, "bid:6S", "bid:6C", "bid:pass")
    with pytest.raises(IllegalAction, match="first call"):
        s.apply(0, "bid:miser")


def test_miser_outbids_eight_level_and_only_nines_outbid_it() -> None:
    s = deal({})
    act(s, "bid:6S", "bid:miser")
    assert s.auction.winning_bid == "miser"
    assert s.legal_actions(2) == ["bid:pass", "bid:9S"]  # no "here" against misère
    act(s, "bid:pass")
    assert s.legal_actions(0) == ["bid:pass", "bid:9S"]
    act(s, "bid:9S")
    # The outbid misère bidder may only pass (default pass_only).
    assert s.legal_actions(1) == ["bid:pass"]
    act(s, "bid:pass")
    assert s.declarer == 0 and s.auction.winning_bid == "9S"


def test_outbid_miser_bidder_may_raise_with_nines_but_not_say_here() -> None:
    s = deal({}, miser_bidder_after_outbid="may_raise")
    act(s, "bid:6S", "bid:miser", "bid:pass", "bid:9S")
    assert s.legal_actions(1) == ["bid:pass", "bid:9C"]


def test_miser_cannot_follow_a_nine() -> None:
    s = deal({}, bid_jumps=True)
    act(s, "bid:6S", "bid:9S")
    with pytest.raises(IllegalAction, match="cannot outbid"):
        s.apply(2, "bid:miser")


def test_miser_won_by_all_passing() -> None:
    s = deal({})
    act(s, "bid:miser", "bid:pass", "bid:pass")
    assert s.declarer == 0 and s.phase == "discard"


def test_here_example_from_the_spec() -> None:
    # first 6♠, second 6♣, third pass, first "here" (holds 6♣), second 6♦, first pass.
    s = deal({})
    act(s, "bid:6S", "bid:6C", "bid:pass")
    assert "bid:here" in s.legal_actions(0)
    act(s, "bid:here")
    assert s.auction.holder == 0 and s.auction.winning_bid == "6C"
    assert s.to_act == (1,)
    assert s.legal_actions(1) == ["bid:pass", "bid:6D"]  # the junior never says here
    act(s, "bid:6D")
    assert "bid:here" in s.legal_actions(0)
    act(s, "bid:pass")
    assert s.declarer == 1 and s.auction.winning_bid == "6D"


def test_here_then_junior_passes_gives_the_senior_the_held_bid() -> None:
    s = deal({})
    act(s, "bid:6S", "bid:6C", "bid:pass", "bid:here", "bid:pass")
    assert s.declarer == 0 and s.auction.winning_bid == "6C"


def test_no_here_with_three_in_the_auction_or_for_the_junior() -> None:
    s = deal({})
    act(s, "bid:6S", "bid:6C")
    assert "bid:here" not in s.legal_actions(2)  # three still bidding
    act(s, "bid:6D")
    assert "bid:here" not in s.legal_actions(0)
    with pytest.raises(IllegalAction, match="here"):
        s.apply(0, "bid:here")
    s = deal({})
    act(s, "bid:pass", "bid:6S")
    assert s.legal_actions(2) == ["bid:pass", "bid:6C", "bid:miser"]  # junior to seat 1


def test_here_rule_off() -> None:
    s = deal({}, here_rule="off")
    act(s, "bid:6S", "bid:6C", "bid:pass")
    assert s.legal_actions(0) == ["bid:pass", "bid:6D"]


def test_seed_literal_here_behind_a_passer() -> None:
    s = deal({}, here_rule="seed_literal")
    # Seat 1 passes; seat 2 (behind the passer) may only say here or pass.
    act(s, "bid:6S", "bid:pass")
    assert s.legal_actions(2) == ["bid:pass", "bid:here"]
    act(s, "bid:here")
    assert s.auction.holder == 2
    assert s.legal_actions(0) == ["bid:pass", "bid:6C"]


def test_seed_literal_four_player_deadlock_goes_to_the_senior() -> None:
    # 4 players, dealer 3: first hand 0 sits behind the dealer, so is always "behind a passer".
    s = deal({}, players=4, dealer=3, here_rule="seed_literal")
    act(s, "bid:6S", "bid:pass")
    # Seats 0 and 2 are both behind a passer: the junior (2) must raise or pass.
    assert s.legal_actions(2) == ["bid:pass", "bid:6C", "bid:miser"]
    act(s, "bid:6C")
    assert s.legal_actions(0) == ["bid:pass", "bid:here"]
    act(s, "bid:here", "bid:6D", "bid:pass")
    assert s.declarer == 2


@pytest.mark.parametrize(("players", "calls"), [
    (3, ("bid:miser", "bid:9S", "bid:pass")),  # seat 0 sits behind seat 2, who passed
    (4, ("bid:miser", "bid:pass", "bid:9S")),  # behind the dealer; the deadlock's senior
])
def test_17_1_seed_literal_outbid_miser_bidder_behind_a_passer_may_only_pass(
        players: int, calls: tuple[str, ...]) -> None:
    """17.1: under ``seed_literal`` + ``may_raise`` an outbid misère bidder behind a passer
    may only pass: the restriction allows "here" or pass, and he may not say "here"."""
    s = deal({}, players=players, dealer=players - 1, here_rule="seed_literal",
             miser_bidder_after_outbid="may_raise")
    act(s, *calls)
    assert s.to_act == (0,) and s.legal_actions(0) == ["bid:pass"]
    before = snapshot(s)
    for call in ("bid:here", "bid:9C"):
        error = s.check(0, call)
        assert isinstance(error, IllegalAction) and error.code == "illegal_bid"
    assert snapshot(s) == before
    act(s, "bid:pass")
    assert s.declarer == (1 if players == 3 else 2) and s.auction.winning_bid == "9S"


def test_all_pass_is_raspasy_and_third_hand_still_speaks() -> None:
    s = deal({})
    act(s, "bid:pass", "bid:pass")
    assert s.to_act == (2,) and s.phase == "bidding"
    act(s, "bid:pass")
    assert s.phase == "play" and s.declarer is None and s.raspasy


def test_third_hand_may_bid_after_two_passes() -> None:
    s = deal({})
    act(s, "bid:pass", "bid:pass", "bid:6S")
    assert s.declarer == 2 and s.phase == "discard"


def test_pass_is_final() -> None:
    s = deal({})
    act(s, "bid:pass", "bid:6S", "bid:6C")
    assert s.to_act == (1,)  # seat 0 passed and is skipped


def test_four_players_the_dealer_never_bids() -> None:
    s = deal({}, players=4, dealer=1)
    assert s.active == (2, 3, 0) and s.to_act == (2,)
    with pytest.raises(NotYourTurn):
        s.apply(1, "bid:6S")
    act(s, "bid:6S", "bid:pass", "bid:pass")
    assert s.declarer == 2


def test_refused_calls_change_nothing() -> None:
    s = deal({})
    act(s, "bid:6S")
    before = snapshot(s)
    for seat, action, error in [
        (0, "bid:6C", NotYourTurn), (1, "bid:7S", IllegalAction), (1, "bid:6S", IllegalAction),
        (1, "bid:11S", MalformedAction), (1, "bid:", MalformedAction),
        (1, "play:7S", WrongPhase), (1, "nonsense", MalformedAction),
        (1, "discard:7S,8S", WrongPhase), (1, "bid:here", IllegalAction),
    ]:
        with pytest.raises(error):
            s.apply(seat, action)
        assert snapshot(s) == before


def test_case_insensitive_calls_are_canonical() -> None:
    s = deal({})
    act(s, "bid:6s", "bid:MISER", "bid:Pass")
    assert [c for _, c in s.auction.calls] == ["6S", "miser", "pass"]
