"""Game records (records.md): load, validate and replay them through the engine."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import ActionError, RecordError, RulesError
from engine.cards import CardError
from engine.games import get_game
from engine.manual import add_record_deal
from engine.match import Match


def parse_json(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a JSON document: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    return doc


def new_match(record: Mapping[str, Any]) -> Match:
    """The match a record describes, before any deal: game, rules and players checked."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    try:
        spec = get_game(record.get("game"))
    except KeyError as exc:
        raise RecordError(str(exc.args[0])) from None
    rules_data = record.get("rules", {})
    if not isinstance(rules_data, Mapping):
        raise RecordError("rules must be an object")
    try:
        rules = spec.rules.from_dict(rules_data)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if len(players) != rules.players:
        raise RecordError(
            f"the rules are for {rules.players} players, the record names {len(players)}"
        )
    deals = record.get("deals", [])
    first_dealer = 0
    if isinstance(deals, list) and deals and isinstance(deals[0], Mapping):
        first_dealer = deals[0].get("dealer", 0)
    if type(first_dealer) is not int or not 0 <= first_dealer < len(players):
        raise RecordError(f"deal 0: dealer must be a seat number 0-{len(players) - 1}")
    return Match(spec, rules, players, first_dealer)


def replay(record: Mapping[str, Any], *, snapshot: Mapping[str, Any] | None = None,
           outputs: Sequence[dict[str, Any]] = ()) -> Match:
    """Replay every deal and action of a record; RecordError names what is wrong.

    With a ``snapshot`` (``Match.snapshot``) and the ``outputs`` of the deals before it,
    the record holds only the deals after it: they are replayed on the resumed match.
    """
    match = new_match(record)
    if snapshot is not None:
        try:
            match = Match.resume(match.spec, match.rules, match.players, snapshot,
                                 list(outputs))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"the snapshot does not fit: {exc}") from None
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    for d, deal in enumerate(deals, start=match.earlier):
        if not isinstance(deal, Mapping):
            raise RecordError(f"deal {d}: must be an object")
        if match.in_deal:
            raise RecordError(f"deal {d}: deal {d - 1} is not finished")
        if match.over:
            raise RecordError(f"deal {d}: the game ended after deal {d - 1}")
        if "entry" in deal:  # a deal played with real cards, entered by hand (engine.manual)
            try:
                add_record_deal(match, deal)
            except (ActionError, RecordError, ValueError) as exc:
                raise RecordError(f"deal {d}: {exc}") from None
            continue
        try:
            match.start_deal(deal=deal)
        except (ActionError, CardError, RecordError, ValueError) as exc:
            raise RecordError(f"deal {d}: {exc}") from None
        actions = deal.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"deal {d}: actions must be a list")
        for a, item in enumerate(actions):
            if match.state is not None and match.state.finished:
                raise RecordError(f"deal {d}, action {a}: the deal is already over")
            try:
                if not isinstance(item, Mapping):
                    raise RecordError("an action must be an object")
                seat, action = match.spec.decode_action(item)
                match.apply(seat, action)
            except (ActionError, CardError, RecordError, ValueError) as exc:
                raise RecordError(f"deal {d}, action {a}: {exc}") from None
    return match


def analyse(record: Mapping[str, Any], only: int | None = None) -> dict[str, Any]:
    """Every deal of a record against the game's double-dummy analysis (``GameSpec.analyse``):
    ``{"game": ..., "deals": [analysis or null]}``; null for a deal entered by hand or
    unfinished, and with ``only`` (a deal's index) for every other deal. The record is
    replayed first: RecordError names what is wrong in it."""
    replay(record)
    match = new_match(record)
    spec = match.spec
    if spec.analyse is None:
        raise RecordError(f"{spec.name} has no deal analysis")
    out: list[dict[str, Any] | None] = []
    for number, deal in enumerate(record.get("deals", [])):
        context = match.sheet.next_context()
        if "entry" in deal:
            add_record_deal(match, deal)
            out.append(None)
            continue
        wanted = only is None or only == number
        out.append(spec.analyse(match.rules, match.players, context, deal) if wanted else None)
        if number == only:
            break
        match.start_deal(deal=deal)
        for item in deal.get("actions", []):
            match.apply(*spec.decode_action(item))
    return {"game": spec.name, "deals": out}
