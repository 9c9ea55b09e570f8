"""Pool credits and the target (spec section 11): overflow helps the others' pools."""

from __future__ import annotations

from engine.preferans.deal_entries import Note
from engine.preferans.rules import Rules


def credit_pool(rules: Rules, pools: list[int], entries: dict[str, list], seat: int,
                points: int, reason: str, notes: list[Note]) -> None:
    """Write ``points`` to ``seat``'s pool; ``pools`` (the sheet's, this deal included) follows.

    With ``pool_overflow = help`` the pool stops at the target ``T`` and the
    excess goes, at ``help_rate`` whists a point, to the others below ``T``:
    the largest pool first (a tie: the first clockwise from ``seat``); what
    nobody can take is written off ``seat``'s mountain at ``k`` a point. Each number
    written is noted (``reason``: why the points were won).
    """
    target, n = rules.pool, len(pools)
    own = points if rules.pool_overflow == "keep" else min(points, max(0, target - pools[seat]))
    _add_pool(pools, entries, seat, own)
    if own:
        notes.append(Note(reason, "pool", seat, own))
    excess = points - own
    clockwise = [(seat + i) % n for i in range(1, n)]
    while excess:
        open_seats = [y for y in clockwise if pools[y] < target]
        if not open_seats:
            entries["mountain"][seat] -= rules.k * excess
            notes.append(Note("written_off", "mountain", seat, -rules.k * excess, count=excess))
            return
        helped = max(open_seats, key=lambda y: pools[y])  # max keeps the first of a tie
        given = min(excess, target - pools[helped])
        _add_pool(pools, entries, helped, given)
        entries["whists"][seat][helped] += rules.help_rate * given
        notes.append(Note("help", "pool", helped, given))
        if rules.help_rate:
            notes.append(Note("help", "whists", seat, rules.help_rate * given, helped, given))
        excess -= given


def _add_pool(pools: list[int], entries: dict[str, list], seat: int, points: int) -> None:
    pools[seat] += points
    entries["pool"][seat] += points
