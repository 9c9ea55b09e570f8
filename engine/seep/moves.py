"""Seep moves (spec section 6): every legal move of a card, why a move is illegal, its effect.

A ``Move`` is one distinct result (spec 16.4.8): which card is played, what it
plays to and which loose cards it uses. The generator enumerates the sets of
loose cards by their sums (structure) and filters them with ``rule_error``
(houses, ownership, holding, the bid move), the same function that explains
to ``diagnose`` why a move someone sent is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from engine.base import ActionError, IllegalAction
from engine.cards import Card
from engine.seep.floor import HOUSE_VALUES, MAX_SUM, Floor, House, maximal, partition, unions
from engine.seep.rules import Rules
from engine.seep.values import display, ordered, total, value

CAPTURE, BUILD, CEMENT, BREAK, THROW = "capture", "build", "cement", "break", "throw"
KINDS = (CAPTURE, BUILD, CEMENT, BREAK, THROW)


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``value``: the card's value (capture, throw), the house value (build,
    cement) or the value of the house raised (break). ``cards``: the loose cards
    captured, or absorbed into the house."""

    kind: str
    card: Card
    value: int
    with_: frozenset[Card] = frozenset()
    cards: frozenset[Card] = frozenset()

    @property
    def target(self) -> int:
        """The value played to: the card's, the house's, or the raised house's new value."""
        if self.kind == BREAK:
            return self.value + value(self.card) + total(self.with_)
        return self.value


@dataclass(frozen=True)
class Turn:
    """A mover's position: rules, floor, seat, hand (before the move) and, on play #1, the bid."""

    rules: Rules
    floor: Floor
    seat: int
    hand: tuple[Card, ...]
    bid: int | None = None

    @cached_property
    def owned(self) -> frozenset[int]:
        """The values of the houses the mover owns."""
        return frozenset(h.value for h in self.floor.houses.values() if self.seat in h.owners)

    @cached_property
    def values_held(self) -> Counter[int]:
        return Counter(value(c) for c in self.hand)


def legal_moves(turn: Turn, card: Card | None = None) -> list[Move]:
    """Every legal move of the turn, or of one card of the hand (spec 6.8)."""
    moves = [m for c in turn.hand if card in (None, c) for m in _card_moves(turn, c)]
    if turn.bid is not None and turn.rules.bid_throw_last_resort and any(
        m.kind == THROW for m in moves
    ):
        others = moves if card is None else [m for c in turn.hand for m in _card_moves(turn, c)]
        if any(m.kind != THROW for m in others):
            moves = [m for m in moves if m.kind != THROW]
    return moves


def _card_moves(turn: Turn, card: Card) -> Iterator[Move]:
    floor, v = turn.floor, value(card)
    caps = capture_sets(turn, v)
    firsts = [Move(CAPTURE, card, v, cards=floor.cards(u)) for u in caps] or [Move(THROW, card, v)]
    yield from (m for m in firsts if rule_error(turn, m) is None)
    for target in HOUSE_VALUES:
        if target < v:
            continue
        kind = CEMENT if target in floor.houses else BUILD
        primaries = [0] if target == v else floor.sums(target - v)
        if not primaries or rule_error(turn, Move(kind, card, target)) is not None:
            continue
        for s in primaries:
            for a in absorb_sets(turn, target, floor.full & ~s):
                if kind == BUILD and not s | a:
                    continue  # a house has at least two cards
                yield Move(kind, card, target, floor.cards(s), floor.cards(a))
    for house in list(floor.houses.values()):
        for s in _break_with(turn, house.value + v):
            probe = Move(BREAK, card, house.value, floor.cards(s))
            if rule_error(turn, probe) is None:
                for a in absorb_sets(turn, probe.target, floor.full & ~s):
                    yield Move(BREAK, card, house.value, probe.with_, floor.cards(a))


def _break_with(turn: Turn, raised: int) -> list[int]:
    """Masks of the loose cards a break may add besides the card (none by default)."""
    if raised > MAX_SUM:
        return []
    if not turn.rules.break_with_floor_cards:
        return [0]
    return [0, *(s for extra in range(1, MAX_SUM - raised + 1) for s in turn.floor.sums(extra))]


def capture_sets(turn: Turn, v: int) -> list[int]:
    """The loose sets a card of value ``v`` may capture (spec 6.1); empty if it captures nothing."""
    floor = turn.floor
    groups = floor.sums(v)
    if not groups:
        return [0] if v in floor.houses else []
    found = unions(groups)
    if turn.rules.capture_must_be_maximal:
        return sorted(maximal(found, groups))
    return sorted(u for u in found if u)


def absorb_sets(turn: Turn, target: int, free: int) -> list[int]:
    """The loose sets within ``free`` a house of ``target`` may absorb (spec 6.2)."""
    floor = turn.floor
    singles = floor.singles(target, free)
    if turn.rules.absorb_sets == "singles":
        return [singles]
    groups = [g for g in floor.sums(target) if not g & ~free]
    found = unions(groups)
    if turn.rules.absorb_sets == "mandatory":
        return sorted(maximal(found, groups))
    return sorted(u for u in found if u & singles == singles)


def partner_clause(rules: Rules, seat: int, owners: set[int]) -> bool:
    """Spec 6.3: a partner owns the house and the mover does not (no holding, no ownership)."""
    return seat not in owners and rules.partner(seat) in owners


def rule_error(turn: Turn, move: Move) -> ActionError | None:
    """Why the move breaks a rule of houses, ownership, holding or the bid move; None if none.

    Depends only on the kind, the card, the value and the ``with`` cards: the
    absorbed cards never change it.
    """
    rules, floor, target = turn.rules, turn.floor, move.target
    played_to = target if move.kind == BUILD else value(move.card)
    if turn.bid is not None and played_to != turn.bid:
        b = turn.bid
        return IllegalAction("bid_move", f"the first move must build a house of {b}, or capture "
                             f"or throw with a card of value {b}", bid=b)
    if move.kind in (BUILD, CEMENT) and target not in HOUSE_VALUES:
        return IllegalAction("house_value", f"a house has a value of 9 to 13, not {target}",
                             value=target)
    if move.kind == BUILD:
        if target in floor.houses:
            return IllegalAction("house_exists", f"there is already a house of {target}: "
                                 "add to it with a cement", value=target)
        if rules.max_houses != "unlimited" and len(floor.houses) >= rules.max_houses:
            return IllegalAction("max_houses", f"at most {rules.max_houses} houses may stand "
                                 "on the floor", limit=rules.max_houses)
    elif move.kind == CEMENT and target not in floor.houses:
        return IllegalAction("no_house", f"there is no house of {target}", value=target)
    elif move.kind == BREAK:
        error = _break_error(turn, move)
        if error is not None:
            return error
    return _holding_error(turn, move)


def _break_error(turn: Turn, move: Move) -> ActionError | None:
    rules, seat = turn.rules, turn.seat
    house = turn.floor.houses.get(move.value)
    if house is None:
        return IllegalAction("no_house", f"there is no house of {move.value}", value=move.value)
    if house.cemented:
        return IllegalAction("cemented", f"the house of {house.value} is cemented and cannot "
                             "be broken", value=house.value)
    if seat in house.owners:
        return IllegalAction("own_house", "you may not break a house you own", value=house.value)
    if not rules.break_partner_house and rules.partner(seat) in house.owners:
        return IllegalAction("partner_house", "you may not break your partner's house",
                             value=house.value)
    if move.with_ and not rules.break_with_floor_cards:
        return IllegalAction("break_with_floor", "a break adds only the card played, "
                             "never loose cards", value=house.value)
    if move.target > MAX_SUM:
        return IllegalAction("over_13", f"the house of {house.value} raised by "
                             f"{move.target - house.value} would be {move.target}: "
                             "a house is at most 13", value=move.target)
    return None


def _joins(turn: Turn, target: int) -> bool:
    """Whether a build, cement or break to ``target`` makes the mover an owner of that house."""
    house = turn.floor.houses.get(target)
    return house is None or not partner_clause(turn.rules, turn.seat, house.owners)


def _holding_error(turn: Turn, move: Move) -> ActionError | None:
    """Spec 6.6: after the move the mover holds a card of every house value they own."""
    owned = set(turn.owned)
    if move.kind == CAPTURE:
        owned.discard(move.value)
    elif move.kind != THROW and _joins(turn, move.target):
        owned.add(move.target)
    played = value(move.card)
    missing = [x for x in owned if turn.values_held[x] - (x == played) <= 0]
    if not missing:
        return None
    x = min(missing)
    if x == move.target and move.kind in (BUILD, CEMENT, BREAK):
        text = f"you must keep a card of value {x} in hand to own a house of {x}"
    else:
        text = f"you must keep a card of value {x} in hand for your house of {x}"
    return IllegalAction("must_hold", text, value=x)


def diagnose(turn: Turn, move: Move) -> ActionError:
    """Why a move that is not among the legal moves is refused."""
    floor, played = turn.floor, move.card.display
    primary = (move.card, *move.with_)
    if move.kind in (BUILD, CEMENT) and total(primary) != move.target:
        return IllegalAction("bad_sum", f"{display(primary)} sums to {total(primary)}, not "
                             f"{move.target}", value=move.target)
    if move.card not in turn.hand:
        return IllegalAction("not_in_hand", f"you do not hold {played}", card=str(move.card))
    for card in ordered(move.with_ | move.cards):
        if card not in floor.loose:
            house = floor.house_of(card)
            if house is None:
                return IllegalAction("not_on_floor", f"{card.display} is not a loose card on "
                                     "the floor", card=str(card))
            return IllegalAction("part_of_house", f"{card.display} lies in the house of "
                                 f"{house.value}: a house is taken only whole, by a card of "
                                 "its value", card=str(card), value=house.value)
    error = rule_error(turn, move)
    if error is not None:
        return error
    v = value(move.card)
    given = floor.mask(move.cards)
    if move.kind in (CAPTURE, THROW):
        caps = capture_sets(turn, v)
        if move.kind == THROW and caps:
            return IllegalAction("can_capture", f"{played} can capture, so it may not be thrown",
                                 card=str(move.card))
        if move.kind == CAPTURE and not caps:
            return IllegalAction("nothing_to_capture", f"{played} captures nothing here",
                                 card=str(move.card))
        if move.kind == CAPTURE and given not in caps:
            return _capture_error(turn, v, given)
    else:
        free = floor.full & ~floor.mask(move.with_)
        if given not in absorb_sets(turn, move.target, free):
            return _absorb_error(turn, move.target, free, given)
        if move.kind == BUILD and not move.with_ | move.cards:
            return IllegalAction("house_size", "a house needs at least two cards")
    if move.kind == THROW and turn.bid is not None:
        return IllegalAction("bid_throw", "the bid card may be thrown only when no build or "
                             "capture is possible")
    return IllegalAction("illegal_move", "that move is not allowed here")


def _capture_error(turn: Turn, v: int, given: int) -> ActionError:
    floor = turn.floor
    rest = next((g for g in floor.sums(v) if not g & given), None)
    if rest is None:
        return IllegalAction("capture_groups", f"the cards taken do not form groups of {v}",
                             value=v)
    also = "also " if given else ""
    return IllegalAction("capture_not_maximal", f"the capture must {also}take "
                         f"{display(floor.cards(rest))}", value=v)


def _absorb_error(turn: Turn, target: int, free: int, given: int) -> ActionError:
    floor = turn.floor
    missing = floor.singles(target, free) & ~given
    if missing:
        return IllegalAction("must_absorb", f"the house of {target} must absorb the loose "
                             f"{display(floor.cards(missing))}", value=target)
    rest = next((g for g in floor.sums(target) if not g & ~free and not g & given), None)
    if turn.rules.absorb_sets != "mandatory" or rest is None:
        return IllegalAction("absorb_not_allowed", f"those cards may not be absorbed into the "
                             f"house of {target}", value=target)
    return IllegalAction("must_absorb", f"the house of {target} must also absorb "
                         f"{display(floor.cards(rest))}", value=target)


def perform(turn: Turn, move: Move) -> list[Card]:
    """Carry out a legal move on the floor; returns the captured cards (none unless a capture)."""
    floor, target = turn.floor, move.target
    if move.kind == THROW:
        floor.add_loose(move.card)
        return []
    if move.kind == CAPTURE:
        house = floor.houses.pop(move.value, None)
        floor.take_loose(move.cards)
        return [move.card, *ordered(move.cards), *(house.cards if house else [])]
    joins = _joins(turn, target)
    absorbed = partition(move.cards, target)
    assert absorbed is not None
    floor.take_loose(move.with_ | move.cards)
    primary = [move.card, *move.with_]
    if move.kind == BREAK:
        primary += floor.houses.pop(move.value).cards
    groups = [tuple(ordered(primary)), *absorbed]
    house = floor.houses.get(target)
    if house is None:
        floor.put_house(House(target, groups, {turn.seat}))
    else:
        house.groups.extend(groups)
        if joins:
            house.owners.add(turn.seat)
    return []
