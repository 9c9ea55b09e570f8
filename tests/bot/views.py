"""A seat's view with its legal actions, as the bot draws a panel from (``play.seat_view``
without a table)."""

from __future__ import annotations

from typing import Any

from engine.base import DealState


def view_with_actions(state: DealState, seat: int | None) -> dict[str, Any]:
    acting = [] if seat is None else [s for s in state.to_act if state.controller(s) == seat]
    return {**state.view(seat), "actions": {s: state.legal_actions(s) for s in acting}}
