"""Trick play: which plays are legal and why others are not (spec 8), who wins a trick (9)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.base import IllegalAction
from engine.cards import JOKER, Card, Suit
from engine.joker.actions import SIXES, SUITS, Play
from engine.joker.rules import Rules

LED_LOW_JOKER_RANK = 5  # a joker led low ranks below the 6 of its suit


def lead_suit(lead: Play) -> Suit:
    """The suit to follow: the led card's, or the suit a led joker names."""
    if lead.card.is_joker:
        assert lead.suit is not None
        return lead.suit
    assert lead.card.suit is not None
    return lead.card.suit


def _highest(cards: Sequence[Card]) -> Card:
    return max(cards, key=lambda c: c.rank)


class PlayCheck:
    """The legal plays of a hand at one moment of a trick, and why any other play is illegal."""

    def __init__(
        self, rules: Rules, hand: Sequence[Card], trick: Sequence[Play],
        trump: Suit | None, sixes_used: Collection[Card],
    ) -> None:
        self.rules = rules
        self.naturals = [c for c in hand if not c.is_joker]
        self.has_joker = len(self.naturals) < len(hand)
        self.lead = trick[0] if trick else None
        self.trump = trump
        self.sixes_used = sixes_used
        self._duty: tuple[list[Card], IllegalAction | None] | None = None

    def legal(self) -> list[Play]:
        """Every legal play: natural cards in hand order, then the joker's declarations."""
        candidates = [Play(c) for c in self.naturals]
        if self.has_joker:
            suits: tuple[Suit | None, ...] = SUITS if self.lead is None else (None,)
            candidates += [Play(JOKER, d, s) for d in ("high", "low") for s in suits]
            candidates += [Play(JOKER, "face", six.suit) for six in SIXES]
        return [p for p in candidates if self.error(p) is None]

    def error(self, play: Play) -> IllegalAction | None:
        """Why ``play`` is illegal here, or None if it is legal."""
        if play.card.is_joker:
            return self._joker_error(play)
        if play.card not in self.naturals:
            return IllegalAction("not_in_hand", f"you do not hold {play.card}", card=str(play.card))
        if self.lead is None:
            return None
        allowed, why = self.duty()
        return None if play.card in allowed else why

    def duty(self) -> tuple[list[Card], IllegalAction | None]:
        """The natural cards the hand may follow with, and the duty that limits them."""
        if self._duty is None:
            self._duty = self._follow(self.naturals)
        return self._duty

    def _joker_error(self, play: Play) -> IllegalAction | None:
        if not self.has_joker:
            return IllegalAction("not_in_hand", "you hold no joker", card="JK")
        if self.lead is None and self.rules.strict_joker and self.naturals:
            return IllegalAction(
                "strict_joker",
                "strict joker: you may lead a joker only when you hold nothing but jokers",
            )
        if play.joker == "face":
            return self._face_error(play)
        if self.lead is None and play.suit is None:
            return IllegalAction(
                "joker_needs_suit",
                f"a led joker names a suit: play:JK:{play.joker}:H, for example",
            )
        if self.lead is not None and play.suit is not None:
            return IllegalAction(
                "joker_takes_no_suit",
                f"only a led joker names a suit: play play:JK:{play.joker}",
            )
        return None

    def _face_error(self, play: Play) -> IllegalAction | None:
        six = play.natural
        assert six is not None
        if not self.rules.face_value:
            return IllegalAction("no_face_value", "these rules do not play a joker at face value")
        if six in self.sixes_used:
            return IllegalAction(
                "six_used", f"the {six.display} has already been played at face value this deal",
                card=str(six),
            )
        if self.lead is None:
            return None
        allowed, why = self._follow([*self.naturals, six])
        if six in allowed:
            return None
        assert why is not None
        return IllegalAction(
            why.code, f"a joker as {six.display} counts as that card here: {why.message}",
            **why.params,
        )

    def _follow(self, naturals: list[Card]) -> tuple[list[Card], IllegalAction | None]:
        """The follow and trump duties of spec 8.2 for these natural cards."""
        lead = self.lead
        assert lead is not None
        suit = lead_suit(lead)
        of_suit = [c for c in naturals if c.suit == suit]
        demands_highest = lead.joker == "high" or (
            lead.joker == "low" and self.rules.low_lead_demands_highest
        )
        if of_suit:
            if demands_highest:
                best = _highest(of_suit)
                return [best], IllegalAction(
                    "must_play_highest",
                    f"the joker led wants your highest {suit.symbol}: play {best.display}",
                    card=str(best),
                )
            return of_suit, IllegalAction(
                "must_follow", f"you must follow suit: play a {suit.symbol}", suit=suit.letter
            )
        trumps = [c for c in naturals if c.suit == self.trump] if self.trump is not None else []
        if trumps:
            assert self.trump is not None
            if self.rules.void_must_trump_highest and lead.joker == "high":
                best = _highest(trumps)
                return [best], IllegalAction(
                    "must_trump_highest",
                    f"you have no {suit.symbol} after a joker led high: "
                    f"play your highest trump {best.display}",
                    card=str(best),
                )
            return trumps, IllegalAction(
                "must_trump",
                f"you have no {suit.symbol}: you must play a trump ({self.trump.symbol})",
                suit=self.trump.letter,
            )
        return naturals, None


def trick_winner(plays: Sequence[Play], trump: Suit | None, rules: Rules) -> int:
    """The index (in playing order) of the play that wins the trick, spec section 9."""
    takers = [i for i, p in enumerate(plays) if p.taking]
    ranked = _ranked(plays)
    if rules.trump_beats_led_high_joker:
        followed = [i for i in takers if i > 0]
        if followed:
            return _pick(followed, rules)
        if takers:  # only the led joker takes: a trump beats it unless it named trumps
            beater = _highest_of(ranked, trump) if plays[0].suit != trump else None
            return 0 if beater is None else beater
    elif takers:
        return _pick(takers, rules)
    by_trump = _highest_of(ranked, trump)
    if by_trump is not None:
        return by_trump
    by_suit = _highest_of(ranked, lead_suit(plays[0]))
    assert by_suit is not None  # the led card, or a joker led low, is of the suit
    return by_suit


def _pick(takers: list[int], rules: Rules) -> int:
    return takers[-1] if rules.two_jokers == "last" else takers[0]


def _ranked(plays: Sequence[Play]) -> list[tuple[int, Suit, int]]:
    """(index, suit, rank) of every play that can win on cards: not taking, not followed low."""
    ranked = []
    for i, play in enumerate(plays):
        card = play.natural
        if card is not None:
            assert card.suit is not None
            ranked.append((i, card.suit, card.rank))
        elif i == 0 and play.joker == "low":
            assert play.suit is not None
            ranked.append((i, play.suit, LED_LOW_JOKER_RANK))
    return ranked


def _highest_of(ranked: list[tuple[int, Suit, int]], suit: Suit | None) -> int | None:
    best = [(rank, i) for i, s, rank in ranked if suit is not None and s == suit]
    return max(best)[1] if best else None
