"""The robot's card play.

Trick contracts: the declarer draws trumps while his top trump is master, cashes
masters, then pushes his long suit; defenders cash masters, lead short suits
for ruffs or low from length, duck when partner's card holds, and win as
cheaply as is safe. Raspasy and the misère declarer avoid tricks: the highest
card that still loses, the most dangerous card when void. Misère defenders keep
the trick low so that the declarer's card is the highest.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.cards import Card, parse_card
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.tricks import playable, winner

Plays = list[tuple[int | None, Card]]


def play(k: Knowledge) -> str:
    cards = [parse_card(a.partition(":")[2]) for a in k.legal]
    if len(cards) == 1:
        card = cards[0]
    elif k.raspasy or (k.miser and k.actor == k.declarer):
        card = _avoid(k, cards)
    elif k.miser:
        card = _catch(k, cards)
    else:
        card = _take(k, cards)
    return f"play:{card}"


# -- shared reasoning ---------------------------------------------------------------

def _wins(k: Knowledge, plays: Plays, card: Card) -> bool:
    """Does ``card`` win the trick if played now (others still to come aside)?"""
    return winner([*plays, (k.actor, card)], k.trump) == len(plays)


def _could_overtake(k: Knowledge, seat: int, plays: Plays) -> bool:
    """Might ``seat`` play a card that beats the trick so far?"""
    led = plays[0][1].suit
    if seat in k.hands:
        options = playable(k.hands[seat], led, k.trump)
    else:
        follow = [c for c in k.unseen if c.suit == led]
        # A hidden hand may be void when few cards of the suit are out.
        ruffs = [c for c in k.unseen if c.suit == k.trump] if len(follow) < 2 else []
        options = follow + ruffs
    return any(winner([*plays, (seat, c)], k.trump) == len(plays) for c in options)


def _master(k: Knowledge, card: Card) -> bool:
    """No card the opponents may hold beats ``card`` in its suit."""
    opponents = [s for s in k.active if s not in k.partners(k.actor)]
    return not any(c.suit == card.suit and c.rank > card.rank
                   for s in opponents for c in k.others_may_hold(s))


def _low(cards: Sequence[Card], trump: object) -> Card:
    """The cheapest card: the lowest non-trump, else the lowest trump."""
    return min(cards, key=lambda c: (c.suit == trump, c.rank))


def _suits(cards: Collection[Card]) -> dict[object, list[Card]]:
    out: dict[object, list[Card]] = {}
    for card in sorted(cards, key=lambda c: -c.rank):
        out.setdefault(card.suit, []).append(card)
    return out


# -- trick contracts -------------------------------------------------------------------

def _take(k: Knowledge, cards: list[Card]) -> Card:
    if not k.trick:
        return _declarer_lead(k, cards) if k.actor == k.declarer else _defender_lead(k, cards)
    plays = k.trick
    side = k.partners(k.actor)
    opponents_after = [s for s in k.next_players if s not in side]
    holder = plays[winner(plays, k.trump)][0]
    if holder in side and not any(_could_overtake(k, s, plays) for s in opponents_after):
        return _low(cards, k.trump)
    safe = [c for c in cards if _wins(k, plays, c) and not any(
        _could_overtake(k, s, [*plays, (k.actor, c)]) for s in opponents_after)]
    if safe:
        return min(safe, key=lambda c: (c.suit == k.trump, c.rank))
    return _low(cards, k.trump)


def _touching(cards: list[Card]) -> bool:
    """The suit (highest first) is headed by two touching honours, such as K Q."""
    return len(cards) >= 2 and cards[0].rank - cards[1].rank == 1 and cards[0].rank >= 12


def _sequence_top(cards: list[Card]) -> Card:
    """The card to lead from a suit (highest first): top of touching honours, else the lowest."""
    return cards[0] if _touching(cards) else cards[-1]


def _declarer_lead(k: Knowledge, cards: list[Card]) -> Card:
    by_suit = _suits(cards)
    trumps = by_suit.get(k.trump, [])
    opponents = [s for s in k.active if s != k.declarer]
    their_trumps = {c for s in opponents for c in k.others_may_hold(s) if c.suit == k.trump}
    if trumps and their_trumps and (_master(k, trumps[0]) or len(trumps) >= 4):
        return trumps[0] if _master(k, trumps[0]) else _sequence_top(trumps)
    masters = [c for c in cards if c.suit != k.trump and _master(k, c)]
    if masters:
        return max(masters, key=lambda c: c.rank)
    side = [suit for suit in by_suit if suit != k.trump]
    if not side:
        return trumps[0] if _master(k, trumps[0]) else trumps[-1]
    longest = max(side, key=lambda s: (len(by_suit[s]), by_suit[s][0].rank))
    return _sequence_top(by_suit[longest])


def _defender_lead(k: Knowledge, cards: list[Card]) -> Card:
    by_suit = _suits(cards)
    side = {s: cs for s, cs in by_suit.items() if s != k.trump}
    masters = [c for cs in side.values() for c in cs if _master(k, c)]
    if masters:
        return max(masters, key=lambda c: c.rank)
    if not side:
        return by_suit[k.trump][-1]
    if k.trump in by_suit:
        singletons = [cs[0] for cs in side.values() if len(cs) == 1 and cs[0].rank < 13]
        if singletons:
            return min(singletons, key=lambda c: c.rank)

    through = k.next_players[0] == k.declarer  # the declarer plays right after this lead

    def lead_value(suit: object) -> tuple[bool, int, int]:
        # Never away from a lone honour (K or Q not backed by the card above). Through the
        # declarer: a suit whose honours partner may hold over him (few of our own); up to
        # the declarer: our strength, a sequence; then the longest suit.
        cs = side[suit]
        bare_honour = cs[0].rank in (12, 13) and not _touching(cs)
        honours = sum(c.rank >= 12 for c in cs)
        return (not bare_honour, -honours if through else int(_touching(cs)), len(cs))

    return _sequence_top(side[max(side, key=lead_value)])


# -- raspasy and the misère declarer: avoid tricks --------------------------------------

def _avoid(k: Knowledge, cards: list[Card]) -> Card:
    if not k.trick:
        return _avoid_lead(k, cards)
    plays = k.trick
    losers = [c for c in cards if not _wins(k, plays, c)]
    if losers:
        if losers[0].suit == plays[0][1].suit:
            return max(losers, key=lambda c: c.rank)
        return _dangerous(cards)
    # Every card takes the trick for now: a later player may still go over a low one;
    # if nobody plays after, the trick is lost anyway and the highest card goes.
    return min(cards, key=lambda c: c.rank) if k.next_players else _dangerous(cards)


def _dangerous(cards: list[Card]) -> Card:
    """The card most likely to take a trick later: the highest, from the shortest suit."""
    by_suit = _suits(cards)
    return max(cards, key=lambda c: (c.rank, -len(by_suit[c.suit])))


def _avoid_lead(k: Knowledge, cards: list[Card]) -> Card:
    """Lead the card the others can least go under; never a card nobody can beat."""
    others = [s for s in k.active if s != k.actor]
    held = {c for s in others for c in k.others_may_hold(s)}

    def risk(card: Card) -> tuple[bool, int, int]:
        suit = [c for c in held if c.suit == card.suit]
        under = sum(c.rank < card.rank for c in suit)
        return (not any(c.rank > card.rank for c in suit), under, card.rank)

    return min(cards, key=risk)


# -- misère defenders: make the declarer take a trick ------------------------------------

def _catch(k: Knowledge, cards: list[Card]) -> Card:
    declarer = k.declarer
    assert declarer is not None
    his = k.others_may_hold(declarer)
    if not k.trick:
        def lead_value(card: Card) -> tuple[bool, int, int]:
            suit = [c for c in his if c.suit == card.suit]
            return (not suit, sum(c.rank < card.rank for c in suit), card.rank)

        return min(cards, key=lead_value)
    plays = k.trick
    led = plays[0][1].suit
    following = cards[0].suit == led
    if not following:
        return _dangerous(cards)
    if any(s == declarer for s, _ in plays):
        if plays[winner(plays, None)][0] == declarer:
            under = [c for c in cards if not _wins(k, plays, c)]
            if under:
                return max(under, key=lambda c: c.rank)
            return min(cards, key=lambda c: c.rank)
        return max(cards, key=lambda c: c.rank)
    return min(cards, key=lambda c: c.rank)
