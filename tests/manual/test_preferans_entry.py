"""Preferans entry: the choices offered at each step, and wrong entries refused with a reason."""

from __future__ import annotations

from typing import Any

import pytest

from engine.base import ActionError, IllegalAction, MalformedAction
from engine.manual import add_entry, form_for
from engine.preferans.manual import Entry
from tests.manual.helpers import NAMES, A, B, C, D, by_buttons, match


def steps_after(rules: dict[str, Any], answers: list[Any]) -> Any:
    """The step a form asks after the given answers."""
    form = form_for(match("preferans", **rules))
    entry = form.empty()
    for value in answers:
        entry = form.choose(entry, value)
    return form.next_step(entry)


def test_first_steps_and_their_choices() -> None:
    step = steps_after({"variant": "sochi"}, [])
    assert (step.name, step.choices) == ("kind", ("game", "miser", "raspasy"))
    step = steps_after({"variant": "sochi", "walkaway": "no_whists"}, [])
    assert step.choices == ("game", "miser", "raspasy", "walkaway")
    step = steps_after({"variant": "sochi"}, ["game"])
    assert (step.name, step.choices) == ("declarer", (A, B, C))
    step = steps_after({"variant": "sochi"}, ["game", B])
    assert step.name == "contract" and step.choices[0] == "6S" and step.choices[-1] == "10NT"
    assert "miser" not in step.choices and len(step.choices) == 25
    assert steps_after({"variant": "sochi"}, ["miser", B]).choices == ("miser",)


def test_the_four_player_dealer_never_declares() -> None:
    step = steps_after({"variant": "sochi", "players": 4}, ["game"])
    assert step.choices == (A, B, C)
    form = form_for(match("preferans", 4, variant="sochi"))
    with pytest.raises(IllegalAction, match="Dan deals and sits out"):
        form.choose(form.choose(form.empty(), "game"), D)


def test_whist_calls_follow_the_protocol() -> None:
    sochi = {"variant": "sochi"}
    step = steps_after(sochi, ["game", A, "7H"])
    assert (step.name, step.seat, step.choices) == ("call", B, ("whist", "pass"))
    assert steps_after(sochi, ["game", A, "7H", "pass"]).choices == ("whist", "pass", "halfwhist")
    assert steps_after(sochi, ["game", A, "7H", "whist"]).choices == ("whist", "pass")
    assert steps_after(sochi, ["game", A, "8H", "pass"]).choices == ("whist", "pass")
    step = steps_after(sochi, ["game", A, "6S", "pass", "halfwhist"])
    assert (step.seat, step.choices) == (B, ("whist", "pass"))  # the first defender may return
    step = steps_after(sochi, ["game", A, "6S", "pass", "halfwhist", "whist"])
    assert (step.seat, step.choices) == (C, ("pass",))  # forced: the half-whister's pass
    stalingrad = steps_after({"variant": "sochi", "stalingrad": True}, ["game", A, "6S"])
    assert stalingrad.choices == ("whist",)


def test_talon_tricks_and_open_steps() -> None:
    sochi = ["game", A, "7H", "whist", "pass"]
    step = steps_after({"variant": "sochi"}, sochi)
    assert (step.name, step.choices) == ("talon", (0, 1, 2, 3))
    step = steps_after({"variant": "sochi"}, [*sochi, 1])
    assert (step.name, step.seat, step.choices) == ("tricks", A, tuple(range(11)))
    step = steps_after({"variant": "sochi"}, [*sochi, 1, 7])
    assert (step.name, step.seat, step.choices, step.optional) == ("open", B, (True, False), True)
    both = ["game", A, "6S", "whist", "whist"]
    step = steps_after({"variant": "leningrad"}, both)
    assert (step.name, step.seat, step.choices) == ("tricks", B, tuple(range(11)))
    step = steps_after({"variant": "leningrad"}, [*both, 3])
    assert (step.seat, step.choices) == (C, tuple(range(8)))
    assert steps_after({"variant": "leningrad"}, [*both, 3, 1]) is None  # no open: two whisters
    assert steps_after({"variant": "leningrad"}, ["game", A, "6S", "pass", "pass"]) is None


def test_raspasy_counts_add_up_to_ten() -> None:
    step = steps_after({"variant": "sochi"}, ["raspasy", 3, 4])
    assert (step.seat, step.choices) == (C, (3,))
    four = {"variant": "sochi", "players": 4}
    step = steps_after(four, ["raspasy", 3, 4])
    assert (step.seat, step.choices) == (C, (1, 2, 3))  # Dan's talon tricks take 0-2
    step = steps_after(four, ["raspasy", 3, 4, 2])
    assert (step.name, step.seat, step.choices) == ("tricks", D, (1,))
    step = steps_after({"variant": "rostov", "players": 4}, ["raspasy", 3, 4])
    assert (step.seat, step.choices) == (C, (3,))  # Rostov: the talon takes no part


def test_contracts_start_at_the_states_opening_bid() -> None:
    m = match("preferans", first_dealer=A, variant="leningrad")
    add_entry(m, form_for(m).parse("raspasy Ann 5 Bob 2 Cid 3"))
    form = form_for(m)
    entry = form.choose(form.choose(form.empty(), "game"), B)
    assert form.next_step(entry).choices[0] == "7S"
    with pytest.raises(IllegalAction, match="cannot be below 7♠ in raspasy state 2"):
        form.choose(entry, "6NT")
    assert form.choose(entry, "7s").contract == "7S"
    walk = form_for(match("preferans", walkaway="with_consolation"))
    entry = walk.choose(walk.choose(walk.empty(), "walkaway"), A)
    with pytest.raises(IllegalAction, match="cannot walk away from misère"):
        walk.choose(entry, "miser")


# text, rules, what the refusal says
REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("7H Ann made; Bob whist 3; Cid pass 1", {}, "Ann took 6 tricks: 7♥ is down 1, not made"),
    ("6S Ann 6; Bob whist 3; Cid whist 2", {}, "the tricks add up to 11, more than 10"),
    ("6S Ann 5; Bob whist 3; Cid whist 1", {}, "the tricks add up to 9, not 10"),
    ("6S Ann; Bob whist 3; Cid whist", {}, "how many tricks did Cid take?"),
    ("6S Ann; Bob whist; Cid pass 1", {}, "how many tricks did Ann take?"),
    ("6S Ann 6; Bob whist 11; Cid pass", {}, "Bob cannot have taken 11 tricks (0-10)"),
    ("8S Ann 8; Bob pass; Cid halfwhist", {}, "Cid: half-whist only after a pass, on a six"),
    ("6S Ann 6; Bob halfwhist; Cid pass", {}, "Bob: half-whist only after a pass"),
    ("7S Ann made; Bob pass; Cid pass; Ann whist", {}, "Ann cannot call whist or pass here"),
    ("7S Ann 7; Bob pass; Cid pass", {}, "no cards were played in this deal"),
    ("7S Ann down 1; Bob pass; Cid pass", {}, "no cards were played in this deal"),
    ("7S Ann down 8; Bob whist; Cid pass", {}, "down 8 is impossible at 7♠"),
    ("7S Ann 7; Bob whist", {}, "Cid's call is missing: whist or pass"),
    ("7S; Bob whist; Cid pass", {}, "who declared?"),
    ("Bob whist; Cid pass", {}, "what was played?"),
    ("walkaway 7S Ann", {}, "walking away is not allowed at this table"),
    ("walkaway 7S Ann 5", {"walkaway": "no_whists"}, "no cards were played"),
    ("raspasy Ann 2 Bob 3 Cid 4", {}, "the tricks add up to 9, not 10"),
    ("raspasy Ann 2 Bob 3", {"players": 4}, "how many tricks did Cid and Dan take?"),
    ("raspasy Ann 2 Bob 3 Cid 2 Dan 3", {"players": 4}, "Dan cannot have taken 3 tricks (0-2)"),
    ("raspasy Ann 2 Bob 3 Cid 5 Dan 0", {"variant": "rostov", "players": 4},
     "Dan sits out this deal"),
    ("raspasy Ann made", {}, "raspasy has no declarer"),
    ("6S Dan 6; Ann whist 2; Bob whist 2", {"players": 4}, "Dan deals and sits out"),
    ("6S Ann 6; Bob whist 2; Cid whist 2; talon AS AD", {"variant": "leningrad"},
     "the talon premium is not played at this table"),
    ("miser Ann 0; talon AS AD", {}, "only paid on trick contracts"),
    ("6S Ann 6; Bob whist 2; Cid whist 2; open", {}, "the lone whister's choice"),
    ("7S Ann 7; Bob whist 3; Cid pass; talon 5", {}, "the talon holds 0 to 3 quick tricks"),
    ("6S Ann 6; Bob pass; Cid whist 4", {"stalingrad": True}, "6♠ must be whisted"),
    ("miser Ann 0 Bob 3 Cid 3", {}, "the tricks add up to 6, not 10"),
]


@pytest.mark.parametrize(("text", "rules", "reason"), REFUSED, ids=[r[0] for r in REFUSED])
def test_wrong_entries_are_refused_and_change_nothing(text: str, rules: dict[str, Any],
                                                      reason: str) -> None:
    n = rules.get("players", 3)
    m = match("preferans", first_dealer=n - 2, **{"variant": "sochi", **rules})
    add_entry(m, form_for(m).parse(f"6S {NAMES[n - 1]} 6; Ann whist 2; Bob whist 2"))
    before = (m.report(), m.record(), m.version, m.sheet.next_context())
    with pytest.raises(ActionError) as caught:
        add_entry(m, form_for(m).parse(text))
    assert reason in str(caught.value)
    assert (m.report(), m.record(), m.version, m.sheet.next_context()) == before


# text, what is wrong, where (the character's position from 1)
MALFORMED = [
    ("7H Ann made; Bob wist 3", "not a player, a contract or a word of the deal", 18),
    ("7H Ann made; 8S Bob", "two contracts: 7H and 8S", 14),
    ("whist Bob", "whose call is it? put the name first", 1),
    ("7H Ann down", "down how many?", 8),
    ("7H Ann down two", "a number of tricks was expected", 13),
    ("7H Ann 7; talon AX KH", "'AX' has no suit", 17),
    ("7H Ann 7; talon AH AH", "two different cards", 20),
    ("7H Ann 7 6", "Ann's tricks are given twice", 10),
    ("7H Ann made; Bob made", "two declarers: Ann and Bob", 18),
    ("raspasy Ann 2 Bob 3 #4 5", "players are numbered #1 to #3", 21),
    ("", "the deal is empty", None),
    ("miser 7H Ann", "a contract does not go with miser", 7),
    ("7H Ann made down 1", "the declarer's result is said once", 13),
]


@pytest.mark.parametrize(("text", "what", "where"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_text_errors_say_what_and_where(text: str, what: str, where: int | None) -> None:
    form = form_for(match("preferans", variant="sochi"))
    with pytest.raises(MalformedAction) as caught:
        form.parse(text)
    assert what in str(caught.value)
    if where is not None:
        assert f"character {where})" in str(caught.value)
        assert caught.value.params["position"] == where - 1


def test_ambiguous_name_prefix() -> None:
    m = match("preferans", variant="sochi")
    m.players[:] = ["Anna", "Andrei", "Boris"]
    with pytest.raises(MalformedAction, match="'an' could be Anna, Andrei"):
        form_for(m).parse("7H an made")
    assert form_for(m).parse("7H ann 7; andr whist 3; bo pass").declarer == 0


def test_forgiving_forms_give_the_same_entry() -> None:
    form = form_for(match("preferans", variant="sochi"))
    same = [
        "7H Ann made; Bob whist 3; Cid pass",
        "ann 7h made, bob whist 3, cid pass",
        "Ann 7♥️ 7\nBob вист 3\nCid пас",
        "7ч Ann сыграл; Bob вист 3; Cid пас 0",
        "7H; Ann 7; Bob whist; Cid pass; talon 0",
        "7H Ann 7 Bob whist 3 Cid pass",
        "7h #1 7; #2 whist 3; #3 pass",
    ]
    entries = {form.parse(text) for text in same}
    assert entries == {Entry("game", A, "7H", ((B, "whist"), (C, "pass")), 0, ((A, 7),))}
    assert form.parse("7H Ann -1; Bob whist; Cid pass") == form.parse(
        "7H Ann без 1; Bob whist; Cid pass")


def test_buttons_and_records_agree() -> None:
    """The record form reads back to the same entry; an unfinished entry is not scored."""
    m = match("preferans", 4, variant="sochi")
    form = form_for(m)
    entry = by_buttons(form, ["game", B, "7NT", "pass", "halfwhist", "whist", "pass", 1, 4,
                              True])
    assert form.from_dict(form.to_dict(entry)) == entry
    assert form.to_dict(entry) == {
        "kind": "game", "declarer": B, "contract": "7NT",
        "calls": [{"seat": C, "whist": "pass"}, {"seat": A, "whist": "halfwhist"},
                  {"seat": C, "whist": "whist"}, {"seat": A, "whist": "pass"}],
        "talon": 1, "tricks": [None, 4, None, None], "open": True}
    unfinished = form.choose(form.choose(form.empty(), "game"), B)
    with pytest.raises(IllegalAction, match="not entered completely: which contract"):
        add_entry(m, unfinished)
    assert m.deals == [] and m.outputs == []
