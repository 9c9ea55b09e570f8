"""The timeout auto move: pass in bidding and whisting, the least committal legal
action elsewhere, the lowest card that may be played."""

from __future__ import annotations

from engine.cards import parse_card
from engine.preferans.robot.knowledge import Knowledge


def auto(k: Knowledge) -> str:
    """Bidding and whisting: pass (whist only when Stalingrad forces it). Discard: the
    two lowest cards (the two highest on misère). Contract: the winning bid. Open or
    closed: closed. A claim: refused. Play: the lowest legal card."""
    if k.phase == "discard":
        hand = sorted(k.hand, key=lambda c: c.rank, reverse=k.view["high_bid"] == "miser")
        return k.discard_action(hand[:2])
    if k.phase == "contract":
        return "contract:" + k.view["high_bid"]
    if k.phase == "open":
        return "open:false"
    if k.phase == "claim":
        return "answer:refuse"  # a claim nobody answered in time: play goes on
    if k.phase == "play":
        return min(k.legal, key=lambda a: parse_card(a.partition(":")[2]).rank)
    key = "bid" if k.phase == "bidding" else "whist"
    return f"{key}:pass" if f"{key}:pass" in k.legal else k.legal[0]
