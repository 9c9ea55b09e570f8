"""Test helpers: seat users at a table and play random legal deals into storage, as the bot does."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from engine.base import Event
from engine.manual import add_entry, fill, form_for
from engine.match import Match
from engine.records import new_match
from storage import Entry, Storage
from storage.rows import TableRow


async def started_table(
    store: Storage, chat_id: int, game: str, rules: Mapping[str, Any], user_ids: list[int]
) -> TableRow:
    """A table of ``game`` in the chat with these users seated in order, started."""
    for user_id in user_ids:
        await store.save_user(user_id, display_name=f"U{user_id}")
    table = await store.create_table(chat_id, game, creator_id=user_ids[0], rules=rules,
                                     seat_count=len(user_ids))
    for user_id in user_ids:
        await store.seat_user(table.id, user_id)
    return await store.start_game(table.id)


async def play_deals(
    store: Storage, table: TableRow, match: Match | None, seed: int | str, deals: int,
    robot_seats: Iterable[int] = (),
) -> Match:
    """Deal and play ``deals`` random deals (fewer if the game ends), appending every entry."""
    if match is None:
        match = new_match(table.header())
    rng = random.Random(f"{seed}/choices")
    robots = set(robot_seats)
    for k in range(deals):
        if match.over:
            break
        match.start_deal(seed=f"{seed}/{k}")
        await store.append(table.id, match.version, Entry.deal(match.deals[-1]))
        while match.in_deal:
            await play_one(store, table, match, rng, robots)
    return match


async def play_one(
    store: Storage, table: TableRow, match: Match, rng: random.Random, robots: set[int]
) -> None:
    """One random legal action, stored with the deal's result and the settlement it ends."""
    entry, result, settlement = random_step(table, match, rng, robots)
    await store.append(table.id, match.version, entry, result=result, settlement=settlement)


def random_step(
    table: TableRow, match: Match, rng: random.Random, robots: set[int]
) -> tuple[Entry, dict[str, Any] | None, list[float] | None]:
    """Apply one random legal action; its log entry, and the result and settlement it ends."""
    state = match.state
    assert state is not None
    seat = state.to_act[0]
    actor = state.controller(seat)
    result, settlement = scored(match.apply(seat, match.spec.random_action(state, seat, rng)))
    entry = Entry.action(match.deals[-1]["actions"][-1], user_id=table.user_of(actor),
                         robot=actor in robots)
    return entry, result, settlement


async def enter_deal(store: Storage, table: TableRow, match: Match, rng: random.Random) -> None:
    """Score a deal entered by hand (scorekeeper mode) with random answers, and store it."""
    entry = fill(form_for(match), lambda step, _: rng.choice(step.choices))
    result, settlement = scored(add_entry(match, entry))
    await store.append(table.id, match.version, Entry.deal(match.deals[-1]), result=result,
                       settlement=settlement)


def scored(events: list[Event]) -> tuple[dict[str, Any] | None, list[float] | None]:
    """The deal output and the settlement that events announce, if they do."""
    result = settlement = None
    for event in events:
        if event.kind == "deal_scored":
            result = event.data["output"]
        elif event.kind == "game_over":
            settlement = event.data["report"]["settlement"]
    return result, settlement
