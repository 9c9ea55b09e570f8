"""The pulkas and deals of a game (spec section 4) and how each deal gets its trump (6)."""

from __future__ import annotations

from engine.joker.rules import Rules

NINES = (9, 9, 9, 9)
PULKAS: dict[str, tuple[tuple[int, ...], ...]] = {
    "standard": ((1, 2, 3, 4, 5, 6, 7, 8), NINES, (8, 7, 6, 5, 4, 3, 2, 1), NINES),
    "nines": (NINES, NINES, NINES, NINES),
    "short": (NINES, NINES),
}


def deal_plan(rules: Rules) -> list[tuple[int, int]]:
    """(pulka number from 1, cards per player) for every deal of the game, in order."""
    return [
        (pulka, cards)
        for pulka, sizes in enumerate(PULKAS[rules.schedule], start=1)
        for cards in sizes
    ]


def trump_mode(rules: Rules, cards: int) -> str:
    """``turn_up`` (a card is turned), ``chooser`` (chosen from three cards) or ``no_trump``."""
    return "turn_up" if cards < 9 else rules.nine_card_trump
