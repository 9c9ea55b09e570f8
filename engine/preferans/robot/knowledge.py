"""What the deciding seat knows, read once from its view (never from the state).

The view shows the seat's own hand, the exposed hands (open play, misère, a
checked ten), the talon once it is public, the declarer's own discard, the
trick in progress and every card of the completed tricks (everyone saw them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from engine.cards import Card, Suit, parse_card, parse_cards
from engine.preferans.bids import MISER, trump
from engine.preferans.pack import preferans_deck
from engine.preferans.rules import Rules

DECK = frozenset(preferans_deck())
SEARCH_LIMIT = 2_000_000  # cards one solve may try (about 0.2 s); a longer one is skipped


class Knowledge:
    """The deciding seat's view of a Preferans deal, in cards rather than text."""

    def __init__(self, view: Mapping[str, Any], rules: Rules) -> None:
        actions = view.get("actions") or {}
        if len(actions) != 1:
            raise ValueError("this view has no decision to make: no legal actions in it")
        (actor, legal), = actions.items()
        self.rules = rules
        self.view = view
        self.seat: int = view["seat"]
        self.actor = int(actor)  # the seat to act: the viewer, or the passer in open play
        # Robots never claim (issue 34): the claims listed beside the cards are left out.
        self.legal: list[str] = [a for a in legal if not a.startswith("claim:")]
        self.phase: str = view["phase"]
        self.active: list[int] = list(view["active"])
        self.declarer: int | None = view["declarer"]
        self.contract: str | None = view["contract"]
        self.hands: dict[int, list[Card]] = {
            int(s): parse_cards(cards) for s, cards in view["exposed"].items()}
        self.hands[self.seat] = parse_cards(view["hand"])
        claim = view.get("claim")
        if claim is not None:  # a claimer's hand is shown to everyone
            self.hands[claim["seat"]] = parse_cards(claim["hand"])
        self.hand = self.hands[self.actor]
        self.talon = parse_cards(view["talon"])
        self.discard = parse_cards(view["discard"])
        self.trick: list[tuple[int | None, Card]] = [
            (s, parse_card(c)) for s, c in view["trick"]]
        self.played = parse_cards(view["played"])

    def discard_action(self, cards: Iterable[Card]) -> str:
        """The legal discard action of these two cards (in the order the engine lists)."""
        wanted = set(cards)
        return next(a for a in self.legal if set(parse_cards(a[len("discard:"):].split(",")))
                    == wanted)

    @property
    def miser(self) -> bool:
        return self.contract == MISER

    @property
    def raspasy(self) -> bool:
        return self.phase == "play" and self.declarer is None

    @property
    def trump(self) -> Suit | None:
        return None if self.contract is None else trump(self.contract)

    @property
    def defenders(self) -> list[int]:
        return [s for s in self.active if s != self.declarer]

    def partners(self, seat: int) -> set[int]:
        """The seats playing on ``seat``'s side (defenders together; alone otherwise)."""
        if self.declarer is None or seat == self.declarer:
            return {seat}
        return set(self.defenders)

    @cached_property
    def gone(self) -> frozenset[Card]:
        """Cards known to be out of play: the trick, the completed tricks, the own
        discard; in raspasy the talon cards turned up for the first tricks."""
        out = {c for _, c in self.trick} | set(self.played) | set(self.discard)
        if self.declarer is None:
            out |= set(self.talon)
        return frozenset(out)

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place the seat does not know (held by a hidden hand or played)."""
        known = {c for cards in self.hands.values() for c in cards}
        return DECK - known - self.gone

    def others_may_hold(self, seat: int) -> frozenset[Card]:
        """Cards ``seat`` may hold as far as the deciding seat knows."""
        if seat in self.hands:
            return frozenset(self.hands[seat])
        return self.unseen

    @property
    def mover(self) -> int:
        """The seat to play the next card: the actor, or while a claim is answered the
        seat whose turn it is in the trick (the first trick is led by first hand)."""
        if self.phase != "claim":
            return self.actor
        if self.trick:
            last = self.trick[-1][0]
            assert last is not None
            return self.active[(self.active.index(last) + 1) % 3]
        winner = self.view["last_winner"]
        return self.active[0] if winner is None else int(winner)

    @property
    def next_players(self) -> list[int]:
        """The active seats still to play to this trick after the actor, in order."""
        played = {s for s, _ in self.trick}
        i = self.active.index(self.actor)
        after = [self.active[(i + k) % 3] for k in (1, 2)]
        return [s for s in after if s not in played]
