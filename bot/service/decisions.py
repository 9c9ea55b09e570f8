"""The players' answers to a vote, and what a passed vote does (its ``kind`` and ``params``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.bounds import ident
from bot.service import events, replacing, stopping, timer_changes
from bot.service.outcome import Outcome
from bot.service.scorekeeping import corrections
from bot.service.substitutes import set_paused
from bot.service.tables import Table
from storage.rows import UserRow, VoteRow

if TYPE_CHECKING:
    from bot.service.ports import Services

Passing = Callable[["Services", Table, VoteRow, Outcome], Awaitable[Any]]


async def _leave(svc: Services, table: Table, vote: VoteRow, out: Outcome) -> None:
    await stopping.end_game(svc, table, vote.kind, out)


async def _pause(svc: Services, table: Table, vote: VoteRow, out: Outcome) -> None:
    paused = bool(vote.params["paused"])
    if (table.status == "paused") != paused:
        await set_paused(svc, table, paused, "asked" if paused else "resumed", out)


async def _timer(svc: Services, table: Table, vote: VoteRow, out: Outcome) -> None:
    await timer_changes.change(svc, table, vote.params["key"], vote.params["value"], out)


async def _replace(svc: Services, table: Table, vote: VoteRow, out: Outcome) -> None:
    await replacing.replace(svc, table, vote.params["seat"], vote.params["user"], out)


async def _correct(svc: Services, table: Table, vote: VoteRow, out: Outcome) -> None:
    await corrections.passed(svc, table, vote.initiator, vote.params, out)


PASSING: dict[str, Passing] = {
    "leave": _leave, "abort": _leave, "pause": _pause, "timer": _timer,
    "replace": _replace, "correct": _correct,
}


async def vote_press(svc: Services, table: Table, user: UserRow,
                     parts: tuple[str, ...]) -> Outcome:
    """Agree or refuse (``vote id``, ``y``/``n``); called with the table's lock held."""
    out = Outcome()
    vote_id = ident(parts[0]) if len(parts) == 2 else None
    if vote_id is None or parts[1] not in ("y", "n"):
        return out.refuse("bad_button")
    vote = await svc.store.votes.get(vote_id)
    if vote is None or vote.table_id != table.id or vote.status != "open":
        return out.refuse("vote_over")
    if user.id not in vote.voters:
        return out.refuse("voters_only")
    if parts[1] == "n":
        vote = await svc.store.votes.close(vote.id, "refused")
        out.tell(events.VoteEnded(table, vote, by=user.display_name))
        return out.done("refused_vote")
    vote = await svc.store.votes.agree(vote.id, user.id)
    if vote.passed:
        vote = await svc.store.votes.close(vote.id, "passed")
        out.tell(events.VoteEnded(table, vote))
        await PASSING[vote.kind](svc, table, vote, out)
    return out.done("agreed")
