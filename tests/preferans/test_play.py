"""Spec sections 6.4, 7 and 9: trick play, open play and its moment, misère, raspasy."""

import pytest

from engine.base import IllegalAction, NotYourTurn
from tests.preferans.helpers import RASPASY_HANDS, RASPASY_TRICKS, act, deal, play_tricks, snapshot

# Dealer 2 (3 players) or 3 (4 players): seat 0 is first hand.
HANDS = {0: "AS KS QS JS 10S 9S 8S 7S AC KC",
         1: "AH KH QH JH 10H 9H 8H 7H QC JC",
         2: "AD KD QD JD 10D 9D 8D 7D 10C 9C"}


def game(contract: str, *calls: str, hands=HANDS, talon="8C 7C", discard="7C,8C", **rules):
    s = deal(hands, talon, **rules)
    bid = "miser" if contract == "miser" else "6S"
    act(s, f"bid:{bid}", "bid:pass", "bid:pass", f"discard:{discard}", f"contract:{contract}")
    act(s, *[f"whist:{c}" for c in calls])
    return s


def test_must_follow_suit() -> None:
    s = game("6NT", "whist", "whist")
    act(s, "play:AC")  # seat 0 leads clubs
    assert s.legal_actions(1) == ["play:JC", "play:QC"]
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="must follow ♣") as err:
        s.apply(1, "play:AH")
    assert err.value.code == "must_follow" and err.value.params == {"suit": "C"}
    assert snapshot(s) == before


def test_must_trump_when_void_and_any_card_without_trumps() -> None:
    hands = {0: "AS KS QS JS 10S 9S 8S AC KC QC",
             1: "AH KH QH JH 10H 9H 8H 7S AD KD",
             2: "QD JD 10D 9D 8D 7D 10C 9C 8C 7C"}
    s = game("6S", "whist", "whist", hands=hands, talon="7H JC", discard="7H,JC")
    act(s, "play:AC")
    # Seat 1 has no club: must trump with 7♠.
    assert s.legal_actions(1) == ["play:7S"]
    with pytest.raises(IllegalAction, match="must play a trump ♠") as err:
        s.apply(1, "play:AH")
    assert err.value.code == "must_trump"
    act(s, "play:7S", "play:7C")
    assert s.tricks == [0, 1, 0]  # the trump wins
    assert s.to_act == (1,)  # the winner leads
    act(s, "play:AD")
    assert s.legal_actions(2) == [f"play:{c}" for c in ("7D", "8D", "9D", "10D", "JD", "QD")]
    act(s, "play:7D")
    # Seat 0 has no diamond: must trump.
    spades = ("8S", "9S", "10S", "JS", "QS", "KS", "AS")
    assert set(s.legal_actions(0)) == {f"play:{c}" for c in spades}


def test_no_trump_void_player_may_play_anything() -> None:
    hands = {0: "AS KS QS JS 10S 9S 8S AC KC QC",
             1: "AH KH QH JH 10H 9H 8H 7S AD KD",
             2: "QD JD 10D 9D 8D 7D 10C 9C 8C 7C"}
    s = game("6NT", "whist", "whist", hands=hands, talon="7H JC", discard="7H,JC")
    act(s, "play:AC")
    assert len(s.legal_actions(1)) == 10
    act(s, "play:AH", "play:7C")
    assert s.tricks == [1, 0, 0]  # highest of the suit led


def test_trick_history_and_last_trick_visible_to_all() -> None:
    s = game("6NT", "whist", "whist")
    act(s, "play:AC", "play:QC", "play:9C")
    for x in (0, 1, 2, None):
        assert s.view(x)["last_trick"] == [[0, "AC"], [1, "QC"], [2, "9C"]]
        assert s.view(x)["trick"] == []


def test_whole_deal_ends_with_ten_tricks() -> None:
    s = game("6S", "whist", "whist")
    while not s.finished:
        seat = s.to_act[0]
        act(s, s.legal_actions(seat)[0])
    r = s.result()
    assert r.played and sum(r.tricks) == 10 and r.kind == "game"
    assert all(len(h) == 0 for h in s.hands)


class TestOpenPlay:
    def test_after_first_lead_exposure(self) -> None:
        s = game("6S", "whist", "pass", variant="leningrad")
        act(s, "open:true")
        assert s.view(0)["exposed"] == {} and s.controller(2) == 2
        act(s, "play:AS")  # the first card is played unseen
        exposed = s.view(0)["exposed"]
        assert set(exposed) == {1, 2} and len(exposed[1]) == 10 and len(exposed[2]) == 10
        assert s.view(None)["exposed"] == exposed
        # The whister plays the passer's cards too.
        assert s.controller(2) == 1 and s.controller(1) == 1 and s.controller(0) == 0
        act(s, "play:7H")
        assert s.to_act == (2,)
        assert s.view(1)["actions"] == {2: s.legal_actions(2)}
        assert s.view(2)["actions"] == {}

    def test_before_declarer_lead_when_declarer_leads(self) -> None:
        s = game("6S", "pass", "whist", variant="sochi")
        act(s, "open:true")
        # Declarer (seat 0) is first hand: hands are exposed before his lead.
        assert set(s.view(0)["exposed"]) == {1, 2}
        assert s.controller(1) == 2

    def test_before_declarer_lead_when_a_defender_leads(self) -> None:
        # Dealer 1: seat 2 first hand, seat 0 second. Seat 0 declares after two passes.
        s = deal(HANDS, "8C 7C", dealer=1, variant="sochi")
        act(s, "bid:pass", "bid:6S", "bid:pass", "discard:7C,8C", "contract:6S",
            "whist:whist", "whist:pass")  # first defender 1 whists, 2 passes
        act(s, "open:true")
        assert s.to_act == (2,) and s.view(0)["exposed"] == {}
        assert s.controller(2) == 2  # the passer leads unseen himself
        act(s, "play:AD")
        assert set(s.view(0)["exposed"]) == {1, 2}
        assert s.controller(2) == 1

    def test_closed_play_never_exposes(self) -> None:
        s = game("6S", "whist", "pass")
        act(s, "open:false")
        act(s, "play:AS", "play:7H", "play:9C")
        assert s.view(0)["exposed"] == {} and s.controller(2) == 2
        assert "AD" not in str(s.view(0)) and "AD" not in str(s.view(1))


def test_miser_defenders_exposed_after_first_card_declarer_hidden() -> None:
    s = game("miser")
    assert s.phase == "play" and s.to_act == (0,)
    assert s.view(1)["exposed"] == {}
    act(s, "play:7S")
    for x in (0, 1, 2, None):
        assert set(s.view(x)["exposed"]) == {1, 2}
    assert "AS" not in str(s.view(1)) and "AS" not in str(s.view(None))
    while not s.finished:
        act(s, s.legal_actions(s.to_act[0])[0])
    assert s.result().kind == "miser" and sum(s.result().tricks) == 10


R_HANDS = RASPASY_HANDS  # talon A♥ 7♦


def test_raspasy_three_players_talon_leads_two_tricks_and_cannot_win() -> None:
    s = deal(R_HANDS, "AH 7D")
    events = act(s, "bid:pass", "bid:pass", "bid:pass")
    assert ("talon_card", None) in [(e.kind, e.seat) for e in events]
    assert s.view(1)["trick"] == [[None, "AH"]] and s.view(1)["talon"] == ["AH"]
    assert s.to_act == (0,)
    assert s.legal_actions(0) == ["play:7H", "play:KH"]  # follow the talon card's suit
    act(s, "play:KH", "play:QH", "play:10H")
    assert s.tricks == [1, 0, 0]  # A♥ shows the suit but cannot win
    assert s.view(None)["talon"] == ["AH", "7D"] and s.view(0)["trick"] == [[None, "7D"]]
    act(s, "play:7S", "play:8D", "play:7C")
    assert s.tricks == [1, 1, 0]
    assert s.to_act == (0,)  # trick 3 is led by first hand, whoever won trick 2
    while not s.finished:
        act(s, s.legal_actions(s.to_act[0])[-1])
    r = s.result()
    assert r.kind == "raspasy" and sum(r.tricks) == 10 and r.declarer is None


def test_raspasy_four_players_the_dealers_talon_card_competes() -> None:
    s = deal(R_HANDS, "AH 7D", players=4, dealer=3)
    act(s, "bid:pass", "bid:pass", "bid:pass")
    assert s.view(0)["trick"] == [[3, "AH"]]
    with pytest.raises(NotYourTurn):
        s.apply(3, "play:AH")
    act(s, "play:KH", "play:QH", "play:10H")
    assert s.tricks == [0, 0, 0, 1]  # the dealer's A♥ takes the trick
    act(s, "play:7S", "play:8D", "play:7C")
    assert s.tricks == [0, 1, 0, 1]
    assert s.to_act == (0,)
    while not s.finished:
        act(s, s.legal_actions(s.to_act[0])[0])
    assert sum(s.result().tricks) == 10


def test_raspasy_rostov_talon_unused_and_hidden() -> None:
    s = deal(R_HANDS, "AH 7D", variant="rostov")
    act(s, "bid:pass", "bid:pass", "bid:pass")
    assert s.view(0)["trick"] == [] and s.to_act == (0,)
    assert len(s.legal_actions(0)) == 10
    while not s.finished:
        act(s, s.legal_actions(s.to_act[0])[0])
        assert s.view(None)["talon"] == []
    assert sum(s.result().tricks) == 10


def test_first_lead_is_first_hand_in_four_player_game() -> None:
    s = deal({}, players=4, dealer=1)
    act(s, "bid:pass", "bid:6S", "bid:pass")  # seat 3 declares
    act(s, f"discard:{','.join(s.view(3)['hand'][:2])}", "contract:6S", "whist:whist",
        "whist:whist")
    assert s.to_act == (2,)  # first hand leads
    act(s, s.legal_actions(2)[0])
    assert s.to_act == (3,)
    act(s, s.legal_actions(3)[0])
    assert s.to_act == (0,)  # the dealer (seat 1) is skipped


def test_checked_ten_is_played_with_its_trumps() -> None:
    """Spec 5.2, 6.5, 7: ``checked`` only removes the whist calls; 10♣ has club trumps."""
    hands = {0: "AC KC QC JC 10C 9C AS KS AD KD",
             1: "AH KH QH JH 10H 9H 8C 7C QS JS",
             2: "QD JD 10D 9D 8D 7D 10S 9S 8S 7S"}
    s = deal(hands, "7H 8H", variant="leningrad")
    assert s.rules.ten_mode == "checked"
    act(s, "bid:6S", "bid:pass", "bid:pass", "discard:7H,8H", "contract:10C")
    assert s.phase == "play" and s.trump is not None and s.trump.letter == "C"
    act(s, "play:AD")
    assert s.legal_actions(1) == ["play:7C", "play:8C"]  # void in diamonds: must trump
    with pytest.raises(IllegalAction) as err:
        s.apply(1, "play:AH")
    assert err.value.code == "must_trump"
    act(s, "play:7C", "play:7D")
    assert s.tricks == [0, 1, 0] and s.to_act == (1,)  # the trump wins; its player leads
    play_tricks(s, [
        ("AH 7S 9C", 0),  # seat 0 has no heart: trumps
        ("AC 8C 8S", 0), ("KC KH 9S", 0), ("KD QH 8D", 0), ("AS JS 10S", 0),
        ("KS QS 9D", 0), ("QC JH 10D", 0), ("JC 10H JD", 0), ("10C 9H QD", 0),
    ])
    r = s.result()
    assert r.checked and r.tricks == (9, 1, 0)


def test_raspasy_without_talon_the_winner_leads_after_trick_one() -> None:
    """Spec 9: with ``raspasy_talon = unused`` only trick 1 is led by first hand."""
    s = deal(R_HANDS, "AH 7D", variant="rostov")
    act(s, "bid:pass", "bid:pass", "bid:pass")
    assert s.to_act == (0,)
    play_tricks(s, RASPASY_TRICKS)  # seat 1 wins trick 1 and leads trick 2
    assert s.result().tricks == (6, 4, 0)


@pytest.mark.parametrize("variant", ["rostov", "sochi"])
def test_raspasy_without_talon_four_players(variant: str) -> None:
    """Spec 9, 17.3: the 4-player dealer has no cards and no part; the winner leads."""
    s = deal(R_HANDS, "AH 7D", players=4, dealer=3, variant=variant, raspasy_talon="unused")
    act(s, "bid:pass", "bid:pass", "bid:pass")
    assert s.to_act == (0,) and s.view(None)["trick"] == []
    play_tricks(s, RASPASY_TRICKS)
    assert s.result().tricks == (6, 4, 0, 0)
