"""Test helpers: seat users at a table and play random legal deals into storage, as the bot does."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from bot.service import records as stored
from engine.base import Event, SeatStats
from engine.games import get_game
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
        await store.chats.save_user(user_id, display_name=f"U{user_id}")
    table = await store.tables.create_table(chat_id, game, creator_id=user_ids[0], rules=rules,
                                     seat_count=len(user_ids))
    for user_id in user_ids:
        await store.tables.seat_user(table.id, user_id)
    # the rules completed as the game writes them, as the bot starts a game
    return await store.tables.start_game(table.id,
                                         rules=get_game(game).rules.from_dict(rules).to_dict())


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
        await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]))
        while match.in_deal:
            await play_one(store, table, match, rng, robots)
    return match


async def play_one(
    store: Storage, table: TableRow, match: Match, rng: random.Random, robots: set[int]
) -> None:
    """One random legal action, stored with the deal's result and the settlement it ends,
    and the match's snapshot at a deal's end, as the bot stores them."""
    entry, result, settlement = random_step(table, match, rng, robots)
    await store.log.append(table.id, match.version, entry, result=result,
                           stats=lines(match, result), settlement=settlement,
                           snapshot=None if result is None else match.snapshot())


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
    await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]), result=result,
                           stats=lines(match, result), settlement=settlement)


def lines(match: Match, result: dict[str, Any] | None) -> list[SeatStats]:
    """A finished deal's statistics lines, as the bot stores them with its result."""
    return [] if result is None else stored.seat_stats(match.spec.name, len(match.players),
                                                       result)


def scored(events: list[Event]) -> tuple[dict[str, Any] | None, list[float] | None]:
    """The deal output and the settlement that events announce, if they do."""
    result = settlement = None
    for event in events:
        if event.kind == "deal_scored":
            result = event.data["output"]
        elif event.kind == "game_over":
            settlement = event.data["report"]["settlement"]
    return result, settlement
