"""Callback data: short ASCII that names the table, and survives restarts.

``kind:table:rest``, at most 64 bytes. Kinds:

- ``a:T:V:S:action``  an engine action for seat S at state version V
- ``u:T:V:S:step``    a UI step (select a card to discard, pick a card then a move)
- ``l:T:op[:arg...]`` lobby: join, leave, start, cancel, set:option:value
- ``v:T:id:y|n``      a vote
- ``t:T:key:value``   a player proposes a time setting (bot/time_settings.py)
- ``r:T``             a player takes their seat back from a substitute robot
- ``k:T:op[:arg...]`` scorekeeper mode: lobby and deal entry (bot/scorekeeper/entering.py)
- ``p:T``             play again: the players of table T's ended game (bot/service/rematch.py)
- ``y:T:N[:p]``       the analysis of table T's deal N, on a panel (p) to the presser
- ``h:T:V:S``         a hint for seat S at state version V (bot/service/hints.py)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.bounds import ident, number

MAX_BYTES = 64
KINDS = ("a", "u", "l", "v", "t", "r", "k", "p", "y", "h")
# kinds whose button may be pressed however old the message showing it (a finished deal's
# analysis): its coming or going need not be shown at once
LASTING = ("y",)


class BadCallback(ValueError):
    """Callback data this bot did not make (forged, truncated or from an old version)."""


@dataclass(frozen=True)
class Callback:
    kind: str
    table: int
    parts: tuple[str, ...]


def pack(kind: str, table: int, *parts: object) -> str:
    data = ":".join([kind, str(table), *map(str, parts)])
    if len(data.encode()) > MAX_BYTES or not data.isascii():
        raise ValueError(f"callback data too long or not ASCII: {data!r}")
    return data


def lasting(data: str | None) -> bool:
    return data is not None and data.partition(":")[0] in LASTING


def action_data(table: int, version: int, seat: int, action: str) -> str:
    return pack("a", table, version, seat, action)


def step_data(table: int, version: int, seat: int, step: str) -> str:
    return pack("u", table, version, seat, step)


def unpack(data: str | None) -> Callback:
    """The button's parts; ``BadCallback`` unless it has our shape, its table is an id and
    every number in it fits storage (a forged 40-digit id reaches no query)."""
    if not data or len(data.encode()) > MAX_BYTES or not data.isascii():
        raise BadCallback("not our button")
    kind, _, rest = data.partition(":")
    table_text, _, tail = rest.partition(":")
    table = ident(table_text)
    if kind not in KINDS or table is None:
        raise BadCallback("not our button")
    parts = tuple(tail.split(":", 2 if kind in ("a", "u") else -1)) if tail else ()
    if any(part.isdigit() and number(part) is None for part in parts):
        raise BadCallback("not our button")
    if kind in ("a", "u") and (len(parts) != 3 or number(parts[0]) is None
                               or number(parts[1]) is None or not parts[2]):
        raise BadCallback("not our button")
    return Callback(kind, table, parts)
