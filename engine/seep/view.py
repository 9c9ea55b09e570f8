"""What one seat (or a spectator) may see of a Seep deal (spec section 12)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.base import acting_actions
from engine.seep.values import ordered

if TYPE_CHECKING:
    from engine.seep.state import State


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """A JSON-able view: own hand only; the floor once the bid is made; captured cards only
    as the rules allow (the last capture until the next play; totals with
    ``show_capture_totals``; everything once the deal is over)."""
    rules = state.rules
    over = state.finished
    worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
    shown = rules.show_capture_totals or over
    out: dict[str, Any] = {
        "game": "seep",
        "phase": state.phase,
        "version": state.version,
        "seat": seat,
        "players": rules.players,
        "teams": rules.teams,
        "dealer": state.dealer,
        "bidder": state.bidder,
        "bid": state.bid,
        "plays": state.plays,
        "to_act": list(state.to_act),
        "actions": acting_actions(state, seat),
        "hand": None if seat is None else [str(c) for c in ordered(state.hands[seat])],
        "hand_sizes": [len(h) for h in state.hands],
        "floor": None if state.bid is None else state.floor.as_dict(),
        "last_capture": state.last_capture,
        "last_capturer": state.last_capturer,
        "sweeps": [list(s) for s in state.sweeps],
        "sweep_points": [sum(n * w for n, w in zip(s, worth, strict=True)) for s in state.sweeps],
        "capture_points": state.capture_points() if shown else None,
        "captured_cards": [len(p) for p in state.piles] if shown else None,
    }
    if state.dealt.void:
        out["bidder_cards"] = [str(c) for c in state.dealt.bidder_cards]
    if over:
        out["piles"] = [[str(c) for c in p] for p in state.piles]
        out["unclaimed"] = [str(c) for c in state.unclaimed]
    return out
