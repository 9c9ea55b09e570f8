"""The tricks played so far, seat by seat, read back from the view.

The view lists the cards of the completed tricks in order (``played``) but not who
played them; everyone at the table saw it, and the rules say it (spec 9): first hand
leads trick 1; in raspasy with ``lead_two`` a talon card leads tricks 1 and 2 and first
hand trick 3; otherwise the winner of a trick leads the next. A player who
does not follow suit shows a void, and one who neither follows nor trumps shows a
void in trumps as well.
"""

from __future__ import annotations

from engine.cards import Card, Suit
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.tricks import winner

Trick = list[tuple[int | None, Card]]

TALON_TRICKS = 2  # raspasy with ``lead_two``: a talon card leads tricks 1 and 2


def talon_leads(k: Knowledge, number: int) -> bool:
    """Does a talon card lead trick ``number`` (from 0) of this deal?"""
    return k.raspasy and k.rules.raspasy_talon == "lead_two" and number < TALON_TRICKS


def fixed_lead(k: Knowledge, number: int) -> bool:
    """Is trick ``number`` (from 0) led whoever won the one before: by first hand (trick 1,
    and the trick after the talon's) or by a talon card?"""
    return number == 0 or talon_leads(k, number - 1)


def tricks_played(k: Knowledge) -> list[Trick]:
    """The completed tricks as (seat, card) plays; a talon card's seat is its owner's
    (the 4-player dealer) or None."""
    cards = list(k.played)
    out: list[Trick] = []
    leader = k.active[0]
    talon_owner = k.view["dealer"] if k.rules.players == 4 else None
    while cards:
        number = len(out)
        if talon_leads(k, number):
            trick: Trick = [(talon_owner, cards.pop(0))]
            order = list(k.active)
        else:
            trick = []
            i = k.active.index(leader)
            order = [k.active[(i + j) % 3] for j in range(3)]
        trick += [(seat, cards.pop(0)) for seat in order]
        out.append(trick)
        won = trick[winner(trick, k.trump)][0]
        assert won is not None
        leader = k.active[0] if fixed_lead(k, number + 1) else won
    return out


def voids(k: Knowledge) -> dict[int, set[Suit]]:
    """The suits each active seat has shown it holds none of."""
    out: dict[int, set[Suit]] = {s: set() for s in k.active}
    for trick in [*tricks_played(k), k.trick]:
        if not trick:
            continue
        led = trick[0][1].suit
        for seat, card in trick[1:]:  # the first card, a player's or the talon's, sets the suit
            if seat is None or seat not in out or card.suit == led:
                continue
            assert led is not None
            out[seat].add(led)
            if k.trump is not None and card.suit != k.trump:
                out[seat].add(k.trump)
    return out


def played_by(k: Knowledge, seat: int) -> list[Card]:
    """The cards ``seat`` has played, the trick in progress included."""
    plays = [p for trick in tricks_played(k) for p in trick] + k.trick
    return [card for s, card in plays if s == seat]
