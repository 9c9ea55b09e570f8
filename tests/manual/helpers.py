"""Matches in scorekeeper mode and deals entered as buttons would enter them."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from engine.games import get_game
from engine.manual import EntryForm, accepts, add_entry, form_for, is_complete
from engine.match import Match

NAMES = ["Ann", "Bob", "Cid", "Dan"]
A, B, C, D = 0, 1, 2, 3


def match(game: str, players: int | None = None, first_dealer: int | None = None,
          **options: Any) -> Match:
    """A scorekeeping match; by default the spec examples' dealer: C (3 players), D (4)."""
    spec = get_game(game)
    rules = spec.rules.from_dict({**options, **({"players": players} if players else {})})
    n = rules.players
    return Match(spec, rules, NAMES[:n], n - 1 if first_dealer is None else first_dealer)


def by_buttons(form: EntryForm, answers: Iterable[Any]) -> Any:
    """Tap each answer in turn; every one must be among the step's offered choices."""
    entry = form.empty()
    for value in answers:
        step = form.next_step(entry)
        assert step is not None, f"nothing left to ask for {value!r}"
        assert accepts(step, value), f"{value!r} is not offered for {step}"
        entry = form.choose(entry, value)
    assert is_complete(form, entry), form.next_step(entry)
    return entry


def enter(m: Match, answers: Iterable[Any]) -> dict[str, Any]:
    """Enter the match's next deal by buttons and score it; the deal's output."""
    entry = by_buttons(form_for(m), answers)
    return add_entry(m, entry)[0].data["output"]


def random_entry(form: EntryForm, rng: random.Random) -> Any:
    """An entry any button sequence could give: a random valid choice at every step."""
    entry = form.empty()
    while (step := form.next_step(entry)) is not None:
        if step.optional and rng.random() < 0.5:
            break
        entry = form.choose(entry, rng.choice(step.choices))
    return entry


def random_game(m: Match, deals: int, rng: random.Random) -> list[Any]:
    """Enter up to ``deals`` random deals (fewer if the game ends); the entries."""
    entries = []
    for _ in range(deals):
        if m.over:
            break
        entry = random_entry(form_for(m), rng)
        add_entry(m, entry)
        entries.append(entry)
    return entries
