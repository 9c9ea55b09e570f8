"""Joker actions: the text form ("play:JK:high:H"), the record form (spec section 17), labels.

Text forms: ``trump:H`` / ``trump:NT``, ``bid:3``, ``play:QH``, ``play:JK:high:H``,
``play:JK:low:C`` (a led joker names a suit), ``play:JK:high``, ``play:JK:low``
(a following joker), ``play:JK:face:6S`` / ``play:JK:face:6C`` (face value).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import MalformedAction
from engine.cards import JOKER, Card, CardError, Suit, parse_card

SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
NO_TRUMP = "NT"
SIXES = (Card(6, Suit.S), Card(6, Suit.C))
DECLARATIONS = ("high", "low", "face")


@dataclass(frozen=True, slots=True)
class TrumpChoice:
    """The chooser's trump in a 9-card deal; ``suit`` None is no trump."""

    suit: Suit | None

    def __str__(self) -> str:
        return f"trump:{trump_text(self.suit)}"


@dataclass(frozen=True, slots=True)
class Bid:
    tricks: int

    def __str__(self) -> str:
        return f"bid:{self.tricks}"


@dataclass(frozen=True, slots=True)
class Play:
    """A card played; a joker (``card`` is JOKER) carries its declaration.

    ``joker``: ``high``, ``low`` or ``face`` (None for a natural card);
    ``suit``: the suit a led high/low joker names, or the suit of the face-value six.
    """

    card: Card
    joker: str | None = None
    suit: Suit | None = None

    @property
    def natural(self) -> Card | None:
        """The natural card this play counts as (a face-value six included); None otherwise."""
        if self.joker == "face":
            assert self.suit is not None
            return Card(6, self.suit)
        return self.card if self.joker is None else None

    @property
    def taking(self) -> bool:
        return self.joker == "high"

    def __str__(self) -> str:
        if self.joker is None:
            return f"play:{self.card}"
        if self.joker == "face":
            return f"play:JK:face:{self.natural}"
        return f"play:JK:{self.joker}" + ("" if self.suit is None else f":{self.suit.letter}")


Action = TrumpChoice | Bid | Play


def trump_text(suit: Suit | None) -> str:
    return NO_TRUMP if suit is None else suit.letter


def _bad(message: str) -> MalformedAction:
    return MalformedAction("bad_action", message)


def _suit(text: str) -> Suit:
    key = text.strip().upper()
    if key not in Suit.__members__:
        raise _bad(f"'{text}' is not a suit: use S, H, D or C")
    return Suit[key]


def parse_action(text: object) -> Action:
    """Read an action's text form; MalformedAction says what is wrong."""
    if not isinstance(text, str):
        raise _bad(f"an action is a string such as 'bid:2' or 'play:QH', not {text!r}")
    parts = text.strip().split(":")
    kind = parts[0].lower()
    if kind == "trump" and len(parts) == 2:
        value = parts[1].strip().upper()
        return TrumpChoice(None if value == NO_TRUMP else _suit(value))
    if kind == "bid" and len(parts) == 2:
        value = parts[1].strip()
        if not (value.isascii() and value.isdigit()):
            raise _bad(f"'{parts[1]}' is not a bid: a bid is a number of tricks, 0 to pass")
        return Bid(int(value))
    if kind == "play" and len(parts) >= 2:
        return _parse_play(parts[1:])
    raise _bad(f"'{text}' is not an action: expected trump:S|H|D|C|NT, bid:N or play:CARD")


def _parse_play(parts: list[str]) -> Play:
    try:
        card = parse_card(parts[0])
    except CardError as exc:
        raise MalformedAction("bad_card", str(exc)) from None
    if not card.is_joker:
        if len(parts) > 1:
            raise _bad(f"only a joker takes a declaration, not {card}")
        return Play(card)
    declaration = parts[1].strip().lower() if len(parts) > 1 else ""
    if declaration not in DECLARATIONS or len(parts) > 3:
        raise _bad("a joker play needs its declaration: high or low, with a suit when led, "
                   "or face with 6S or 6C (play:JK:high:H, play:JK:low, play:JK:face:6S)")
    if declaration == "face":
        return Play(JOKER, "face", _six(parts[2] if len(parts) == 3 else "").suit)
    return Play(JOKER, declaration, _suit(parts[2]) if len(parts) == 3 else None)


def _six(text: str) -> Card:
    try:
        card = parse_card(text)
    except CardError:
        card = None
    if card not in SIXES:
        raise _bad("a joker at face value is the 6S or the 6C")
    assert card is not None
    return card


def describe(action: Action) -> str:
    """A short English label: "bid 2", "trump ♥", "Q♥", "🃏 high: wants ♥"."""
    if isinstance(action, TrumpChoice):
        return "no trump" if action.suit is None else f"trump {action.suit.symbol}"
    if isinstance(action, Bid):
        return "pass (bid 0)" if action.tricks == 0 else f"bid {action.tricks}"
    if action.joker is None:
        return action.card.display
    if action.joker == "face":
        assert action.natural is not None
        return f"🃏 as {action.natural.display}"
    if action.suit is None:
        return "🃏 high: takes" if action.joker == "high" else "🃏 low: under"
    if action.joker == "high":
        return f"🃏 high: wants {action.suit.symbol}"
    return f"🃏 low: lets {action.suit.symbol} take"


def encode_action(seat: int, text: str) -> dict[str, Any]:
    """The record form of an action's text (spec section 17)."""
    return record_form(seat, parse_action(text))


def record_form(seat: int, action: Action) -> dict[str, Any]:
    """The record form of an action (spec section 17)."""
    if isinstance(action, TrumpChoice):
        return {"seat": seat, "trump": trump_text(action.suit)}
    if isinstance(action, Bid):
        return {"seat": seat, "bid": action.tricks}
    item: dict[str, Any] = {"seat": seat, "play": str(action.card)}
    if action.joker == "face":
        item.update(joker="face", **{"as": str(action.natural)})
    elif action.joker is not None:
        item["joker"] = action.joker
        if action.suit is not None:
            item["suit"] = action.suit.letter
    return item


_FIELDS = {"trump": set(), "bid": set(), "play": {"joker", "suit", "as"}}


def decode_action(item: Mapping[str, Any]) -> tuple[int, str]:
    """The seat and canonical action text of a record action; MalformedAction otherwise."""
    seat = item.get("seat")
    if type(seat) is not int:
        raise MalformedAction("bad_seat", "an action needs a seat number")
    kinds = [k for k in item if k in _FIELDS]
    if len(kinds) != 1:
        raise _bad(f"an action needs exactly one of trump, bid, play; got {sorted(item)}")
    kind = kinds[0]
    extra = sorted(set(item) - {"seat", kind} - _FIELDS[kind])
    if extra:
        raise _bad(f"unknown field(s) in a {kind} action: {', '.join(extra)}")
    value = item[kind]
    if kind == "bid":
        if type(value) is not int or value < 0:
            raise _bad(f"bid must be a whole number of tricks, 0 to pass, not {value!r}")
        return seat, str(Bid(value))
    if not isinstance(value, str):
        raise _bad(f"{kind} must be a string, not {value!r}")
    if kind == "trump":
        return seat, str(parse_action(f"trump:{value}"))
    return seat, str(_decode_play(value, item))


def _decode_play(card_text: str, item: Mapping[str, Any]) -> Play:
    joker, suit, six = item.get("joker"), item.get("suit"), item.get("as")
    parts = [card_text]
    if joker is not None:
        if not isinstance(joker, str):
            raise _bad(f"joker must be high, low or face, not {joker!r}")
        parts.append(joker)
    if (suit is not None or six is not None) and joker is None:
        raise _bad("suit and as belong to a joker play with its declaration")
    if six is not None and joker != "face":
        raise _bad("as goes with joker face")
    if suit is not None and joker == "face":
        raise _bad("a face-value joker names its six with as, not suit")
    extra = six if joker == "face" else suit
    if extra is not None:
        if not isinstance(extra, str):
            raise _bad(f"{'as' if joker == 'face' else 'suit'} must be a string, not {extra!r}")
        parts.append(extra)
    if any(":" in part for part in parts):
        raise _bad(f"a record names the card, declaration and suit in separate fields: {parts}")
    play = parse_action("play:" + ":".join(parts))
    assert isinstance(play, Play)
    return play
