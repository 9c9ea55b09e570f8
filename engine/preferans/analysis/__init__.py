"""A finished Preferans deal against the double-dummy solver, every hand open (issue 34).

- a trick contract: ``par``, the declarer's tricks with best play by all;
- misère: whether it was ``catchable`` and the card that ``let_go`` of it;
- raspasy: each player's ``fewest`` tricks, the fewest he could take against the
  other two;
- every ``costly`` card: the trick, who, the card played, the card that kept the par,
  and the cost in tricks and in whists at the table's rules (``whists``).

Only the card play is analysed: a deal nobody played out (a walk-away, a contract
nobody whisted) has nothing but its kind.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from engine.preferans.analysis.play import Play, card_play, par
from engine.preferans.analysis.whists import cost
from engine.preferans.bids import MISER
from engine.preferans.codec import decode_action
from engine.preferans.raspasy_states import raspasy_cost
from engine.preferans.result import DealContext
from engine.preferans.rules import Rules
from engine.preferans.settlement import as_number
from engine.preferans.state import PLAY, State

__all__ = ["analyse", "card_play", "par"]


def analyse(rules: Rules, players: Sequence[str], context: DealContext,
            deal: Mapping[str, Any]) -> dict[str, Any] | None:
    """The analysis of one finished deal of a record (its ``dealer``, ``hands``, ``talon``
    and ``actions``), dealt in ``context``; None if the deal is unfinished."""
    state = State.new(rules, players, context, deal=deal)
    actions = [decode_action(a) for a in deal.get("actions", [])]
    while actions and state.phase != PLAY:
        state.apply(*actions.pop(0))
    start = copy.deepcopy(state)
    for seat, action in actions:
        state.apply(seat, action)
    if not state.finished:
        return None
    result = state.result()
    out: dict[str, Any] = {"kind": result.kind, "contract": result.contract,
                           "declarer": result.declarer, "tricks": list(result.tricks),
                           "played": result.played}
    if not result.played:
        return out
    plays = card_play(start, actions)
    r = raspasy_cost(rules, context.raspasy_state)
    out["costly"] = [{"trick": p.trick, "seat": p.seat, "card": str(p.card),
                      "kept": str(p.kept), "tricks": p.cost,
                      "whists": as_number(cost(rules, result, r, p))}
                     for p in plays if p.cost]
    if result.declarer is None:
        out["fewest"] = [par(start, s) if s in start.active else None for s in range(rules.players)]
    elif result.contract == MISER:
        out["catchable"] = par(start, result.declarer) > 0
        out["let_go"] = _let_go(plays, result.declarer)
    else:
        out["par"] = par(start, result.declarer)
    return out


def _let_go(plays: Sequence[Play], declarer: int) -> dict[str, Any] | None:
    """The first defender's card after which the misère could no longer be caught."""
    for p in plays:
        if p.seat != declarer and p.best > 0 and p.value == 0:
            return {"trick": p.trick, "seat": p.seat, "card": str(p.card), "kept": str(p.kept)}
    return None
