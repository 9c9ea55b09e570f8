"""Seep actions as text, as record objects and as labels (spec section 15, 16.4.8).

Text: ``bid:13``, ``throw:3H``, ``cap:KD:10H+3C/9S+4D`` (groups joined by ``/``;
``cap:JC`` takes only the house of 11), ``build:5S:13:8D:absorb:10H+3C``,
``cement:JC:11``, ``break:2C:9`` (``break:2C:9:AD`` with
``break_with_floor_cards``). Unlike the spec's short forms, absorbed cards are
named whenever there are any, forced or not: ``Match`` writes the record from
the text alone, and a record must list them. A text of 40 bytes or more (a
capture of a dozen loose cards) is written compactly, each card list as a
52-bit mask in 9 base64url characters after ``=``: ``cap:KD:=<taken>``,
``build:5S:13:=<with><absorb>``. Both forms are always accepted.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import IllegalAction, MalformedAction
from engine.cards import Card, CardError, Suit, parse_card
from engine.seep.floor import group_sum_error, partition
from engine.seep.moves import BREAK, BUILD, CAPTURE, CEMENT, THROW, Move
from engine.seep.values import display, ordered, total, value

BID = "bid"
MAX_TEXT = 40  # bytes: an action travels in Telegram's 64-byte callback data with a table id
_TEXT_KEYS = {"bid": BID, "throw": THROW, "cap": CAPTURE, "build": BUILD, "cement": CEMENT,
              "break": BREAK}
_KEY_OF = {kind: key for key, kind in _TEXT_KEYS.items()}
_HOUSE_KINDS = (BUILD, CEMENT, BREAK)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_MASK_CHARS = 9


@dataclass(frozen=True)
class Written:
    """An action as written: kind, card, number (the bid, house value or house raised), cards."""

    kind: str
    card: Card | None = None
    number: int | None = None
    with_: tuple[Card, ...] = ()
    groups: tuple[tuple[Card, ...], ...] = ()


# Text.


def parse_action(text: object) -> Written:
    """Read an action text; MalformedAction (or IllegalAction for groups that do not sum)."""
    if not isinstance(text, str) or not text.isascii():
        raise MalformedAction("bad_action", f"{text!r} is not a Seep action")
    parts = text.strip().split(":")
    kind = _TEXT_KEYS.get(parts[0].lower())
    if kind is None:
        raise MalformedAction("bad_action", f"'{text}' is not a Seep action: expected bid, cap, "
                              "build, cement, break or throw")
    try:
        written = _parse_parts(kind, parts[1:])
    except (CardError, ValueError, IndexError):
        raise MalformedAction("bad_action", f"'{text}' cannot be read: see the forms "
                              "bid:13, cap:KD:10H+3C, build:5S:13:8D, cement:JC:11, "
                              "break:2C:9, throw:3H") from None
    _check_distinct(written)
    return written


def _parse_parts(kind: str, parts: list[str]) -> Written:
    if kind == BID:
        (number,) = parts
        return Written(BID, number=_number(number))
    card, rest = parse_card(parts[0]), parts[1:]
    if kind == THROW:
        if rest:
            raise ValueError
        return Written(THROW, card)
    if kind == CAPTURE:
        if len(rest) > 1:
            raise ValueError
        if rest and rest[0].startswith("="):
            return Written(CAPTURE, card, groups=_regroup(_unmask(rest[0][1:]), value(card)))
        return Written(CAPTURE, card, groups=_groups(rest[0]) if rest else ())
    number, rest = _number(rest[0]), rest[1:]
    if rest and rest[0].startswith("="):
        (token,) = rest
        if len(token) != 1 + 2 * _MASK_CHARS:
            raise ValueError
        with_ = tuple(ordered(_unmask(token[1:1 + _MASK_CHARS])))
        absorbed = _regroup(_unmask(token[1 + _MASK_CHARS:]), _target(kind, card, number, with_))
        return Written(kind, card, number, with_, absorbed)
    with_: tuple[Card, ...] = ()
    if rest and rest[0].lower() != "absorb":
        with_ = tuple(_cards(rest.pop(0)))
    groups: tuple[tuple[Card, ...], ...] = ()
    if rest:
        keyword, text = rest
        if keyword.lower() != "absorb":
            raise ValueError
        groups = _groups(text)
    return Written(kind, card, number, with_, groups)


def _number(text: str) -> int:
    if not text.isdigit():
        raise ValueError
    return int(text)


def _cards(text: str) -> list[Card]:
    items = text.split("+")
    if not all(items):
        raise ValueError
    return [parse_card(item) for item in items]


def _groups(text: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(_cards(part)) for part in text.split("/"))


def _target(kind: str, card: Card, number: int, with_: Iterable[Card]) -> int:
    return number + value(card) + total(with_) if kind == BREAK else number


def _check_distinct(w: Written) -> None:
    named = [*([w.card] if w.card else []), *w.with_, *(c for g in w.groups for c in g)]
    for card in named:
        if named.count(card) > 1:
            raise MalformedAction("card_twice", f"{card.display} is named twice",
                                  card=str(card))


def format_action(w: Written) -> str:
    """The readable text of an action."""
    if w.kind == BID:
        return f"bid:{w.number}"
    head = f"{_KEY_OF[w.kind]}:{w.card}"
    if w.kind == THROW:
        return head
    groups = "/".join("+".join(str(c) for c in g) for g in w.groups)
    if w.kind == CAPTURE:
        return f"{head}:{groups}" if groups else head
    text = f"{head}:{w.number}"
    if w.with_:
        text += ":" + "+".join(str(c) for c in w.with_)
    return f"{text}:absorb:{groups}" if groups else text


def action_text(w: Written) -> str:
    """The canonical text: readable when shorter than 40 bytes, compact otherwise."""
    text = format_action(w)
    if len(text) < MAX_TEXT:
        return text
    taken = _mask([c for g in w.groups for c in g])
    if w.kind == CAPTURE:
        return f"cap:{w.card}:={taken}"
    return f"{_KEY_OF[w.kind]}:{w.card}:{w.number}:={_mask(w.with_)}{taken}"


def _index(card: Card) -> int:
    assert card.suit is not None
    return int(card.suit) * 13 + card.rank - 2


def _mask(cards: Iterable[Card]) -> str:
    bits = sum(1 << _index(c) for c in cards)
    return "".join(_B64[bits >> 6 * i & 63] for i in reversed(range(_MASK_CHARS)))


def _unmask(text: str) -> list[Card]:
    if len(text) != _MASK_CHARS or any(ch not in _B64 for ch in text):
        raise ValueError
    bits = 0
    for ch in text:
        bits = bits << 6 | _B64.index(ch)
    if bits >> 52:
        raise ValueError
    return [Card(i % 13 + 2, Suit(i // 13)) for i in range(52) if bits >> i & 1]


def _regroup(cards: list[Card], target: int) -> tuple[tuple[Card, ...], ...]:
    groups = partition(cards, target)
    if groups is None:
        raise IllegalAction("bad_sum", f"{display(cards)} cannot be split into groups of "
                            f"{target}", value=target)
    return tuple(groups)


# Moves.


def written(move: Move) -> Written:
    """The canonical writing of a move: cards and groups in canonical order."""
    if move.kind == THROW:
        return Written(THROW, move.card)
    groups = partition(move.cards, move.target)
    assert groups is not None
    if move.kind == CAPTURE:
        return Written(CAPTURE, move.card, groups=tuple(groups))
    return Written(move.kind, move.card, move.value, tuple(ordered(move.with_)), tuple(groups))


def to_move(w: Written) -> Move:
    """The move an action names; IllegalAction when a group named does not sum to its value."""
    assert w.card is not None and w.kind != BID
    v = value(w.card)
    number = v if w.kind in (CAPTURE, THROW) else w.number
    assert number is not None
    target = _target(w.kind, w.card, number, w.with_)
    error = group_sum_error(w.groups, target)
    if error is not None:
        raise IllegalAction("bad_sum", error, value=target)
    cards = frozenset(c for g in w.groups for c in g)
    return Move(w.kind, w.card, number, frozenset(w.with_), cards)


# Records (spec section 15).

_RECORD_KEYS: dict[str, tuple[str, ...]] = {
    BID: (), THROW: (), CAPTURE: ("groups",), BUILD: ("value", "with", "absorb"),
    CEMENT: ("value", "with", "absorb"), BREAK: ("house", "with", "absorb"),
}


def encode_action(seat: int, action: str) -> dict[str, Any]:
    """The record object of an action text."""
    w = parse_action(action)
    groups = [[str(c) for c in g] for g in w.groups]
    if w.kind == BID:
        return {"seat": seat, "bid": w.number}
    if w.kind == THROW:
        return {"seat": seat, "throw": str(w.card)}
    if w.kind == CAPTURE:
        return {"seat": seat, "capture": str(w.card), "groups": groups}
    item: dict[str, Any] = {"seat": seat, w.kind: str(w.card)}
    item["house" if w.kind == BREAK else "value"] = w.number
    if w.with_ or w.kind != BREAK:
        item["with"] = [str(c) for c in w.with_]
    item["absorb"] = groups
    return item


def decode_action(item: Mapping[str, Any]) -> tuple[int, str]:
    """The seat and action text of a record object; MalformedAction if it cannot be read."""
    seat = item.get("seat")
    if type(seat) is not int:
        raise MalformedAction("bad_seat", "an action needs a seat number")
    kinds = [k for k in item if k in _RECORD_KEYS]
    if len(kinds) != 1:
        raise MalformedAction("bad_action", "an action needs exactly one of bid, capture, "
                              f"build, cement, break, throw; got {sorted(set(item) - {'seat'})}")
    kind = kinds[0]
    extra = set(item) - {"seat", kind, *_RECORD_KEYS[kind]}
    if extra:
        raise MalformedAction("bad_action", f"unexpected field(s) for {kind}: "
                              f"{', '.join(sorted(extra))}")
    try:
        w = _from_record(kind, item)
    except CardError as exc:
        raise MalformedAction("bad_card", str(exc)) from None
    _check_distinct(w)
    return seat, format_action(w)


def _from_record(kind: str, item: Mapping[str, Any]) -> Written:
    if kind == BID:
        return Written(BID, number=_int(item, "bid"))
    card = parse_card(item[kind])
    if kind == THROW:
        return Written(THROW, card)
    key = "groups" if kind == CAPTURE else "absorb"
    groups = tuple(tuple(_card_list(g, "a group")) for g in _list(item, key))
    if any(not g for g in groups):
        raise MalformedAction("bad_action", "a group may not be empty")
    if kind == CAPTURE:
        return Written(CAPTURE, card, groups=groups)
    number = _int(item, "house" if kind == BREAK else "value")
    return Written(kind, card, number, tuple(_card_list(item.get("with", []), "with")), groups)


def _int(item: Mapping[str, Any], key: str) -> int:
    number = item.get(key)
    if type(number) is not int:
        raise MalformedAction("bad_action", f"{key} must be a whole number")
    return number


def _list(item: Mapping[str, Any], key: str) -> list[Any]:
    items = item.get(key, [])
    if not isinstance(items, list):
        raise MalformedAction("bad_action", f"{key} must be a list")
    return items


def _card_list(items: object, what: str) -> list[Card]:
    if not isinstance(items, list):
        raise MalformedAction("bad_action", f"{what} must be a list of cards")
    return [parse_card(c) for c in items]


# Labels.


def label(w: Written, houses: Collection[int]) -> str:
    """The English label of an action, given the house values on the floor before it."""
    if w.kind == BID:
        return f"bid {w.number}"
    if w.kind == THROW:
        return "throw"
    assert w.card is not None
    groups = ", ".join(display(g) for g in w.groups)
    if w.kind == CAPTURE:
        v = value(w.card)
        parts = [f"house {v}"] * (v in houses) + ([groups] if groups else [])
        text = "capture " + ", ".join(parts)
        return text + f" = {v}" if any(len(g) > 1 for g in w.groups) else text
    if w.kind == BREAK:
        target = _target(BREAK, w.card, w.number or 0, w.with_)
        into = "into house" if target in houses else "to"
        text = f"break house {w.number} {into} {target}"
    else:
        text = f"{w.kind} house {w.number}"
    if w.with_:
        text += f" with {display(w.with_)}"
    return text + f", absorbing {groups}" if groups else text
