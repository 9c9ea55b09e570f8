"""Preferans actions: engine strings ("bid:7S") <-> record objects ({"seat": 1, "bid": "7S"})."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import MalformedAction
from engine.cards import CardError, format_cards, parse_card, parse_cards

KEYS = ("bid", "discard", "contract", "whist", "open", "play", "claim", "answer")


def encode_action(seat: int, action: str) -> dict[str, Any]:
    """The record form of an engine action string (records.md, Preferans actions)."""
    key, _, value = action.partition(":")
    if key == "discard":
        return {"seat": seat, "discard": value.split(",")}
    if key == "open":
        return {"seat": seat, "open": value == "true"}
    if key == "claim" and value.isdigit():
        return {"seat": seat, "claim": int(value)}
    return {"seat": seat, key: value}


def decode_action(item: Mapping[str, Any]) -> tuple[int, str]:
    """The seat and engine action of a record action; MalformedAction if it cannot be read."""
    seat = item.get("seat")
    if type(seat) is not int:
        raise MalformedAction("bad_seat", "an action needs a seat number")
    keys = [k for k in item if k != "seat"]
    if len(keys) != 1 or keys[0] not in KEYS:
        raise MalformedAction(
            "bad_action", f"an action needs exactly one of {', '.join(KEYS)}; got {keys}"
        )
    key = keys[0]
    value = item[key]
    try:
        if key == "discard":
            if not isinstance(value, list):
                raise MalformedAction("bad_action", "discard must be a list of two cards")
            return seat, "discard:" + ",".join(format_cards(parse_cards(value)))
        if key == "open":
            if not isinstance(value, bool):
                raise MalformedAction("bad_action", "open must be true or false")
            return seat, f"open:{'true' if value else 'false'}"
        if key == "claim":
            if type(value) is not int or value < 0:
                raise MalformedAction("bad_action", "claim must be a number of tricks")
            return seat, f"claim:{value}"
        if not isinstance(value, str):
            raise MalformedAction("bad_action", f"{key} must be a string")
        if key == "play":
            return seat, f"play:{parse_card(value)}"
        return seat, f"{key}:{value.strip()}"
    except CardError as exc:
        raise MalformedAction("bad_card", str(exc)) from None
