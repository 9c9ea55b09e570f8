"""Ratings against openskill itself: a series of games between the same four users moves
their ratings exactly as the library's Plackett-Luce model says, in the group and across
groups; a rebuild from the stored results gives the same ratings; which games count."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.service import ratings
from engine.games import get_game
from engine.match import Match
from storage import Storage
from storage.rows import TableRow
from tests.storage.play import play_deals, started_table

GROUP, OTHER = -10, -20
USERS = [1, 2, 3, 4]
# (chat, game, rules, users by seat): the same four users, seated differently
SERIES = [
    (GROUP, "joker", {}, [1, 2, 3, 4]),
    (GROUP, "seep", {"bazzis": 1}, [1, 2, 3, 4]),  # 1 & 3 against 2 & 4
    (GROUP, "preferans", {"pool": 2, "players": 4}, [2, 3, 4, 1]),
    (OTHER, "joker", {"pairs": True}, [4, 3, 2, 1]),  # 4 & 2 against 3 & 1
    (GROUP, "joker", {}, [3, 1, 4, 2]),
    (GROUP, "seep", {"bazzis": 1}, [2, 1, 4, 3]),
    (OTHER, "preferans", {"pool": 2}, [1, 2, 3]),
    (GROUP, "joker", {}, [2, 4, 1, 3]),
]


async def play_game(store: Storage, chat: int, game: str, rules: dict[str, Any],
                    users: list[int], seed: int) -> tuple[TableRow, Match]:
    table = await started_table(store, chat, game, rules, users)
    match = await play_deals(store, table, None, seed, deals=500)
    assert match.over
    return table, match


class Library:
    """The expected ratings, kept with openskill's own objects: per (scope key, user)."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[tuple[Any, str, int], PlackettLuceRating] = {}
        self.games: dict[tuple[Any, str, int], int] = {}

    def play(self, chat: int, game: str, rules: dict[str, Any], users: list[int],
             settlement: list[float]) -> None:
        spec = get_game(game)
        teams = spec.teams(spec.rules.from_dict(rules)) or [[s] for s in range(len(users))]
        best = [max(settlement[s] for s in team) for team in teams]
        ranks = [1 + sum(other > mine for other in best) for mine in best]
        for scope in (chat, "everywhere"):
            keys = [[(scope, game, users[s]) for s in team] for team in teams]
            before = [[self.ratings.get(k) or self.model.rating() for k in team] for team in keys]
            after = self.model.rate(before, ranks=ranks)
            for team, rated in zip(keys, after, strict=True):
                for key, rating in zip(team, rated, strict=True):
                    self.ratings[key] = rating
                    self.games[key] = self.games.get(key, 0) + 1

    def of(self, chat: int | None, game: str) -> Iterator[tuple[int, PlackettLuceRating, int]]:
        scope = "everywhere" if chat is None else chat
        for (where, kind, user), rating in self.ratings.items():
            if where == scope and kind == game:
                yield user, rating, self.games[where, kind, user]


@pytest.fixture
async def series(store: Storage) -> Library:
    """The series played and rated as the bot rates a game that ends; checked after each
    game against the library."""
    library = Library()
    for seed, (chat, game, rules, users) in enumerate(SERIES):
        table, match = await play_game(store, chat, game, rules, users, seed)
        found = await ratings.rate(store, table.id)
        assert {(c.scope, c.seat) for c in found} == {
            (scope, s) for scope in ("group", "all") for s in range(len(users))}
        library.play(chat, game, rules, users, match.report()["settlement"])
        await assert_as_library(store, library)
    return library


async def assert_as_library(store: Storage, library: Library) -> None:
    for chat in (GROUP, OTHER, None):
        for game in ("joker", "seep", "preferans"):
            want = {user: (rating, games) for user, rating, games in library.of(chat, game)}
            found = await store.ratings.standings(game, chat, USERS)
            assert found.keys() == want.keys()
            for user, standing in found.items():
                rating, games = want[user]
                assert standing.skill.mu == pytest.approx(rating.mu, abs=1e-9)
                assert standing.skill.sigma == pytest.approx(rating.sigma, abs=1e-9)
                assert standing.games == games
                assert ratings.conservative(standing.skill) == pytest.approx(rating.ordinal())


async def test_a_series_of_games_moves_the_ratings_as_the_library_says(
        store: Storage, series: Library) -> None:
    # the group's board is the library's order of ordinals (the conservative estimate)
    for game in ("joker", "seep"):
        board = await store.ratings.leaderboard(GROUP, game, min_games=1,
                                                caution=ratings.CAUTION, limit=10)
        want = sorted(series.of(GROUP, game), key=lambda found: -found[1].ordinal())
        assert [row.user_id for row in board] == [user for user, _, _ in want]
        assert [row.name for row in board] == [f"U{user}" for user, _, _ in want]
    joker = await store.ratings.leaderboard(GROUP, "joker", min_games=4,
                                            caution=ratings.CAUTION, limit=10)
    assert joker == []  # three Joker games in the group
    history = await store.ratings.history(1, None)
    assert [p.game for p in history] == [game for _, game, _, users in SERIES if 1 in users]
    assert len(await store.ratings.history(1, OTHER)) == 2


async def test_a_rebuild_from_the_results_gives_the_same_ratings(
        store: Storage, series: Library, location: str) -> None:
    stored = await store.ratings.changes()
    assert len(stored) == 2 * sum(len(users) for *_, users in SERIES)
    assert len(await ratings.rebuild(store)) == len(stored)
    assert await store.ratings.changes() == stored
    await store.db.write(lambda conn: conn.execute(  # a change of model, or a lost row
        "UPDATE rating_changes SET mu = 40 WHERE user_id = 2"))
    await store.db.write(lambda conn: conn.execute(
        "DELETE FROM rating_changes WHERE table_id = 1"))
    assert await store.ratings.changes() != stored
    done = subprocess.run([sys.executable, "-m", "bot.ratings", "rebuild", "--database",
                           location], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"{len(SERIES)} games rated, 4 players"
    assert await store.ratings.changes() == stored
    await assert_as_library(store, series)


async def test_which_games_count(store: Storage) -> None:
    """A game stopped early with its settlement counts; an abandoned one, a scorekeeper's
    sheet and a table with a player known only by name do not."""
    stopped = await started_table(store, GROUP, "joker", {}, USERS)
    match = await play_deals(store, stopped, None, 1, deals=3)
    await store.tables.finish_game(stopped.id, match.report()["settlement"])
    assert len(await ratings.rate(store, stopped.id)) == 8

    abandoned = await started_table(store, GROUP, "joker", {}, USERS)
    await play_deals(store, abandoned, None, 2, deals=3)
    await store.tables.set_status(abandoned.id, "aborted")
    assert await ratings.rate(store, abandoned.id) == []

    kept = await store.tables.create_table(GROUP, "seep", creator_id=1, rules={"bazzis": 1},
                                           seat_count=4, settings={"mode": "scorekeeper"})
    for user in USERS:
        await store.tables.seat_user(kept.id, user)
    kept = await store.tables.start_game(kept.id)
    match = await play_deals(store, kept, None, 3, deals=500)
    assert match.over and await ratings.rate(store, kept.id) == []

    guest = await store.tables.create_table(GROUP, "preferans", creator_id=1, rules={"pool": 2},
                                            seat_count=3)
    for user in USERS[:2]:
        await store.tables.seat_user(guest.id, user)
    await store.tables.seat_guest(guest.id, "Dana")
    guest = await store.tables.start_game(guest.id)
    match = await play_deals(store, guest, None, 4, deals=500)
    assert match.over and await ratings.rate(store, guest.id) == []

    rebuilt = await ratings.rebuild(store)
    assert {c.table_id for c in rebuilt} == {stopped.id}


async def test_games_rated_at_the_same_time_each_see_the_other(store: Storage) -> None:
    """Games with players in common that end at once are rated one after the other, in the
    order they finished (one rated before another that finished first is rated again after
    it), and a rebuild meanwhile waits or is waited for: the stored ratings are always
    those a rebuild computes."""
    games = []
    for seed, users in enumerate(([1, 2, 3, 4], [4, 3, 2, 1], [2, 4, 1, 3], [1, 3, 2, 4],
                                  [3, 4, 1, 2], [2, 1, 4, 3])):
        table, _ = await play_game(store, GROUP if seed % 2 else OTHER, "joker", {}, users,
                                   seed)
        games.append(table.id)

    async def as_rebuilt(rated: list[int]) -> None:
        """The games ``rated`` are rated as a rebuild rates them (the games after them
        do not change theirs; their ratings are then taken away again)."""
        stored = await store.ratings.changes()
        assert {c.table_id for c in stored} == set(rated)
        await ratings.rebuild(store)
        assert [c for c in await store.ratings.changes() if c.table_id in rated] == stored
        await store.db.write(lambda conn: conn.execute(
            "DELETE FROM rating_changes WHERE table_id > ?", (max(rated),)))

    assert len(await ratings.rate(store, games[1])) == 8  # before the game that ended first
    first = await ratings.rate(store, games[0])
    assert len(first) == 8 and await ratings.rate(store, games[0]) == first
    await as_rebuilt(games[:2])
    found = await asyncio.gather(*(ratings.rate(store, t) for t in games[2:5]))
    assert [len(changes) for changes in found] == [8, 8, 8]
    await as_rebuilt(games[:5])
    found = await asyncio.gather(ratings.rebuild(store), ratings.rate(store, games[5]))
    assert [len(changes) for changes in found] == [8 * len(games), 8]
    await as_rebuilt(games)
