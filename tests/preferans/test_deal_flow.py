"""Spec sections 5-6: talon, discard, contract, walk-away, whist calls, open/closed, the ten."""

import pytest

from engine.base import IllegalAction, MalformedAction, NotYourTurn, WrongPhase
from tests.preferans.helpers import act, deal, snapshot

# Dealer 2: seat 0 is first hand. Seat 0 is strong in spades.
HANDS = {0: "AS KS QS JS 10S 9S 8S 7S AC KC",
         1: "AH KH QH JH 10H 9H 8H 7H QC JC",
         2: "AD KD QD JD 10D 9D 8D 7D 10C 9C"}
TALON = "8C 7C"


def won(bid: str = "6S", **rules: object):
    """Seat 0 wins the auction at ``bid`` (6S or miser), the others passing."""
    s = deal(HANDS, TALON, **rules)
    act(s, "bid:" + bid, "bid:pass", "bid:pass")
    return s


def declared(contract: str = "6S", **rules: object):
    s = won("miser" if contract == "miser" else "6S", **rules)
    act(s, "discard:7C,8C", "contract:" + contract)
    return s


def test_talon_is_shown_to_everyone_and_taken() -> None:
    s = deal(HANDS, TALON)
    assert all(s.view(x)["talon"] == [] for x in (0, 1, 2, None))
    events = act(s, "bid:6S", "bid:pass", "bid:pass")
    assert ("talon_shown", 0) in [(e.kind, e.seat) for e in events]
    for x in (0, 1, 2, None):
        assert s.view(x)["talon"] == ["8C", "7C"]
    assert len(s.view(0)["hand"]) == 12 and {"8C", "7C"} <= set(s.view(0)["hand"])
    assert s.phase == "discard" and s.to_act == (0,)
    assert len(s.legal_actions(0)) == 66  # any two of twelve


@pytest.mark.parametrize(("action", "error", "match"), [
    ("discard:7C", IllegalAction, "exactly two"),
    ("discard:7C,8C,AS", IllegalAction, "exactly two"),
    ("discard:7C,7C", IllegalAction, "two different"),
    ("discard:7C,AH", IllegalAction, "do not hold"),
    ("discard:7C,XX", MalformedAction, "XX"),
])
def test_bad_discards_are_refused(action: str, error: type, match: str) -> None:
    s = won()
    before = snapshot(s)
    with pytest.raises(error, match=match):
        s.apply(0, action)
    assert snapshot(s) == before


def test_discard_is_secret_and_counts_for_nobody() -> None:
    s = won()
    act(s, "discard:AC,7C")
    assert s.view(0)["discard"] == ["7C", "AC"]
    assert s.view(1)["discard"] == [] and s.view(None)["discard"] == []
    assert "AC" not in str(s.view(1)) and "AC" not in str(s.view(None))
    assert len(s.view(0)["hand"]) == 10 and s.phase == "contract"


def test_contract_not_below_the_winning_bid() -> None:
    s = deal(HANDS, TALON)
    act(s, "bid:6S", "bid:6C", "bid:6D", "bid:6H", "bid:pass", "bid:pass", "discard:7C,8C")
    legal = s.legal_actions(0)
    assert legal[0] == "contract:6H" and "contract:10NT" in legal
    assert "contract:6D" not in legal and "contract:miser" not in legal
    assert "contract:walkaway" not in legal  # off by default
    with pytest.raises(IllegalAction, match="lower than your bid 6♥"):
        s.apply(0, "contract:6D")
    with pytest.raises(IllegalAction, match="misère must be bid"):
        s.apply(0, "contract:miser")
    with pytest.raises(IllegalAction, match="not allowed"):
        s.apply(0, "contract:walkaway")
    act(s, "contract:7S")  # higher than the bid is fine
    assert s.contract == "7S" and s.phase == "whist"


def test_miser_declarer_plays_miser() -> None:
    s = won("miser", walkaway="no_whists")
    act(s, "discard:7C,8C")
    assert s.legal_actions(0) == ["contract:miser"]
    with pytest.raises(IllegalAction, match="you play misère"):
        s.apply(0, "contract:6S")
    act(s, "contract:miser")
    assert s.phase == "play" and s.whisting is None


def test_walkaway_when_the_rules_allow_it() -> None:
    s = won(walkaway="no_whists")
    act(s, "discard:7C,8C")
    assert "contract:walkaway" in s.legal_actions(0)
    act(s, "contract:walkaway")
    assert s.finished
    r = s.result()
    assert r.kind == "walkaway" and r.contract == "6S" and r.tricks == (0, 0, 0)


def _whist(*calls: str, contract: str = "6S", **rules: object):
    s = declared(contract, **rules)
    act(s, *["whist:" + c for c in calls])
    return s


def test_two_whisters_play_closed() -> None:
    s = _whist("whist", "whist")
    assert s.phase == "play" and s.open is False and s.to_act == (0,)
    assert s.whisting.whisters == (1, 2)


@pytest.mark.parametrize(("calls", "whister"), [(("whist", "pass"), 1), (("pass", "whist"), 2)])
def test_one_whister_chooses_open_or_closed(calls: tuple[str, str], whister: int) -> None:
    s = _whist(*calls)
    assert s.phase == "open" and s.to_act == (whister,)
    assert s.legal_actions(whister) == ["open:true", "open:false"]
    with pytest.raises(NotYourTurn):
        s.apply(3 - whister, "open:true")
    act(s, "open:false")
    assert s.phase == "play" and s.open is False


def test_half_whist_stands() -> None:
    s = _whist("pass", "halfwhist", "pass")
    assert s.finished
    r = s.result()
    assert r.kind == "game" and r.halfwhister == 2 and r.whisters == () and not r.played
    assert r.tricks == (0, 0, 0)


def test_returned_whist_the_half_whister_must_pass() -> None:
    s = _whist("pass", "halfwhist", "whist")
    assert s.to_act == (2,) and s.legal_actions(2) == ["whist:pass"]
    with pytest.raises(IllegalAction, match="only pass"):
        s.apply(2, "whist:whist")
    act(s, "whist:pass")
    assert s.phase == "open" and s.to_act == (1,)
    act(s, "open:true")
    r_calls = [c for _, c in s.whisting.calls]
    assert r_calls == ["pass", "halfwhist", "whist", "pass"] and s.whisting.returned


def test_both_pass_the_contract_is_given() -> None:
    s = _whist("pass", "pass")
    assert s.finished
    r = s.result()
    assert r.whisters == () and r.halfwhister is None and r.passers == (1, 2)


def test_half_whist_only_after_a_pass_and_on_six_or_seven() -> None:
    s = declared("6S")
    act(s, "whist:whist")
    assert s.legal_actions(2) == ["whist:whist", "whist:pass"]
    with pytest.raises(IllegalAction, match="half-whist"):
        s.apply(2, "whist:halfwhist")
    s = declared("7S")
    act(s, "whist:pass")
    assert "whist:halfwhist" in s.legal_actions(2)
    s = declared("8S")
    act(s, "whist:pass")
    assert s.legal_actions(2) == ["whist:whist", "whist:pass"]
    with pytest.raises(IllegalAction):
        s.apply(2, "whist:halfwhist")


def test_first_defender_speaks_first() -> None:
    s = declared("6S")
    assert s.to_act == (1,)
    with pytest.raises(NotYourTurn):
        s.apply(2, "whist:whist")
    with pytest.raises(MalformedAction):
        s.apply(1, "whist:maybe")
    with pytest.raises(WrongPhase):
        s.apply(1, "open:true")


def test_stalingrad_six_spades_must_be_whisted_by_both() -> None:
    s = declared("6S", stalingrad=True)
    assert s.legal_actions(1) == ["whist:whist"]
    with pytest.raises(IllegalAction, match="Stalingrad"):
        s.apply(1, "whist:pass")
    act(s, "whist:whist")
    assert s.legal_actions(2) == ["whist:whist"]
    s = declared("6C", stalingrad=True)
    assert "whist:pass" in s.legal_actions(1)


def test_checked_ten_has_no_whist_calls() -> None:
    s = declared("10S", variant="leningrad")
    assert s.phase == "play" and s.whisting is None and s.checked_ten
    s = declared("10S", variant="sochi")
    assert s.phase == "whist"


def test_checked_ten_hands_exposed_after_first_lead() -> None:
    s = declared("10S", variant="leningrad")
    assert s.view(0)["exposed"] == {}
    act(s, "play:AS")
    exposed = s.view(None)["exposed"]
    assert set(exposed) == {1, 2} and len(exposed[1]) == 10


def test_walkaway_with_consolation_value_is_accepted() -> None:
    s = won(walkaway="with_consolation")
    act(s, "discard:7C,8C", "contract:walkaway")
    assert s.result().kind == "walkaway"
