"""Ratings as data: each rated game's changes, players' current ratings, leaderboards and
histories. The ratings are computed by the service (bot.service.ratings); nothing here
knows the model beyond a skill and its uncertainty."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from storage.rows import (
    FinishedGame,
    PlayerResult,
    RatingChange,
    RatingPoint,
    Scope,
    Skill,
    Standing,
)
from storage.sql import Conn, Database

# The order ratings are computed in: a game after every game that finished before it.
_ORDER = "t.finished_at, t.id"
RATINGS_LOCK = 7_118_020  # the lock (Dialect.exclusive) that rating transactions take


# What the service computes a game's changes with: the game, and its players' ratings
# before it by (scope, user) (a player new to a scope is not in it); no changes: not rated.
Rater = Callable[[FinishedGame, Mapping[tuple[Scope, int], Skill]], Sequence[RatingChange]]


class RatingStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def rate(self, table_id: int, rater: Rater) -> list[RatingChange]:
        """Rate a finished game: its players' ratings are read and its changes written in
        one transaction, one such at a time (``RATINGS_LOCK``), so that games rated at the
        same time each see the other. Games of its kind that finished after it and were
        rated first (they ended at once) are rated again after it; a game rated already
        (by a rebuild meanwhile) keeps its changes. The game's changes are returned (by
        scope, then seat)."""
        async def rate(conn: Conn) -> list[RatingChange]:
            await _exclusive(conn)
            games = await _finished(conn, table_id)
            if not games or games[0].table_id != table_id:
                return []  # not finished: not rated
            ids = [g.table_id for g in games]
            rated = {row["table_id"] for row in await conn.fetch(
                f"SELECT DISTINCT table_id FROM rating_changes WHERE table_id IN ({_marks(ids)})",
                tuple(ids))}
            if table_id in rated:
                return [_change(row) for row in await conn.fetch(
                    "SELECT * FROM rating_changes WHERE table_id = ? ORDER BY scope, seat",
                    (table_id,))]
            again = [g for g in games[1:] if g.table_id in rated]
            if again:
                await conn.execute(
                    f"DELETE FROM rating_changes WHERE table_id IN ({_marks(again)})",
                    tuple(g.table_id for g in again))
            found = [await _rate(conn, game, rater) for game in [games[0], *again]]
            return sorted(found[0], key=lambda c: (c.scope, c.seat))

        return await self._db.write(rate)

    async def rebuild(self, rater: Rater) -> list[RatingChange]:
        """Every rating computed again from the stored results, game by game in rating
        order, in one transaction (none rated meanwhile); the changes written."""
        async def rebuild(conn: Conn) -> list[RatingChange]:
            await _exclusive(conn)
            await conn.execute("DELETE FROM rating_changes")
            return [c for game in await _finished(conn, None)
                    for c in await _rate(conn, game, rater)]

        return await self._db.write(rebuild)

    async def changes(self) -> list[RatingChange]:
        """Every stored change, in rating order (scope, then seat, within a game)."""
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                "SELECT r.* FROM rating_changes r JOIN game_tables t ON t.id = r.table_id"
                f" ORDER BY {_ORDER}, r.scope, r.seat")
        return [_change(row) for row in rows]

    async def standings(self, game: str, chat_id: int | None,
                        users: Collection[int]) -> dict[int, Standing]:
        """These users' current ratings in ``game``: in the group ``chat_id``, or across all
        groups (None). A user never rated there is left out."""
        async with self._db.reading() as conn:
            return await _standings(conn, game, chat_id, users)

    async def leaderboard(self, chat_id: int, game: str, *, min_games: int, caution: float,
                          limit: int) -> list[Standing]:
        """The group's players in ``game`` by ``mu - caution * sigma`` (the conservative
        estimate), with at least ``min_games`` rated games."""
        async with self._db.reading() as conn:
            rows = await _latest(
                conn, game, chat_id, "", (), tail=" AND latest.games >= ? ORDER BY"
                " latest.mu - ? * latest.sigma DESC, latest.games DESC, latest.user_id LIMIT ?",
                tail_params=(min_games, caution, limit))
        return [_standing(row) for row in rows]

    async def history(self, user_id: int, chat_id: int | None) -> list[RatingPoint]:
        """A user's rating after each of his rated games, oldest first, every game kind: in
        the group ``chat_id``, or across all groups (None)."""
        scope, where, params = _scope(chat_id)
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                "SELECT t.game, r.table_id, t.finished_at, r.mu, r.sigma FROM rating_changes r"
                " JOIN game_tables t ON t.id = r.table_id WHERE r.user_id = ? AND r.scope = ?"
                f"{where} ORDER BY {_ORDER}", (user_id, scope, *params))
        return [RatingPoint(row["game"], row["table_id"], row["finished_at"],
                            Skill(row["mu"], row["sigma"])) for row in rows]


def _marks(items: Collection[Any]) -> str:
    """The placeholders of an IN list of these items."""
    return ", ".join("?" * len(items))


async def _exclusive(conn: Conn) -> None:
    """Wait till no other transaction rates games, and rate alone till this one ends."""
    if conn.dialect.exclusive:
        await conn.fetch(conn.dialect.exclusive, (RATINGS_LOCK,))


async def _rate(conn: Conn, game: FinishedGame,
                rater: Rater) -> Sequence[RatingChange]:
    users = [r.user_id for r in game.results if r.user_id is not None]
    before: dict[tuple[Scope, int], Skill] = {}
    for scope, chat_id in (("group", game.chat_id), ("all", None)):
        found = await _standings(conn, game.game, chat_id, users)
        before.update({(scope, user): s.skill for user, s in found.items()})
    changes = rater(game, before)
    await conn.executemany(
        "INSERT INTO rating_changes (table_id, seat, scope, user_id, mu_before, sigma_before,"
        " mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(c.table_id, c.seat, c.scope, c.user_id, c.before.mu, c.before.sigma, c.after.mu,
          c.after.sigma) for c in changes])
    return changes


async def _standings(conn: Conn, game: str, chat_id: int | None,
                     users: Collection[int]) -> dict[int, Standing]:
    if not users:
        return {}
    rows = await _latest(conn, game, chat_id, f" AND r.user_id IN ({_marks(users)})",
                         tuple(users))
    return {row["user_id"]: _standing(row) for row in rows}


async def _latest(conn: Conn, game: str, chat_id: int | None, where: str,
                  params: tuple[Any, ...], *, tail: str = "",
                  tail_params: tuple[Any, ...] = ()) -> list[Any]:
    """Each user's last change in the scope, with his number of rated games and name."""
    scope, in_chat, chat = _scope(chat_id)
    return list(await conn.fetch(
        "SELECT latest.*, u.display_name FROM (SELECT r.user_id, r.mu, r.sigma,"
        " ROW_NUMBER() OVER (PARTITION BY r.user_id ORDER BY t.finished_at DESC, t.id DESC)"
        " AS n,"
        " COUNT(*) OVER (PARTITION BY r.user_id) AS games"
        " FROM rating_changes r JOIN game_tables t ON t.id = r.table_id"
        f" WHERE r.scope = ? AND t.game = ?{in_chat}{where}) AS latest"
        f" JOIN users u ON u.id = latest.user_id WHERE latest.n = 1{tail}",
        (scope, game, *chat, *params, *tail_params)))


def _scope(chat_id: int | None) -> tuple[Scope, str, tuple[int, ...]]:
    """The scope of a chat (None: all groups) and the condition that selects its games."""
    if chat_id is None:
        return "all", "", ()
    return "group", " AND t.chat_id = ?", (chat_id,)


def _standing(row: Any) -> Standing:
    return Standing(row["user_id"], row["display_name"], Skill(row["mu"], row["sigma"]),
                    row["games"])


def _change(row: Any) -> RatingChange:
    return RatingChange(row["table_id"], row["seat"], row["scope"], row["user_id"],
                        Skill(row["mu_before"], row["sigma_before"]),
                        Skill(row["mu"], row["sigma"]))


async def _finished(conn: Conn, since: int | None) -> list[FinishedGame]:
    """Finished games in rating order: every one (``since`` None), or the game ``since``
    (if finished) and those of its kind that finished after it."""
    only = "" if since is None else (
        " AND t.game = (SELECT game FROM game_tables WHERE id = ?)"
        " AND (t.finished_at, t.id) >= (SELECT finished_at, id FROM game_tables WHERE id = ?)")
    params = () if since is None else (since, since)
    tables = await conn.fetch(
        "SELECT t.id, t.chat_id, t.game, t.rules, t.settings, t.players FROM game_tables t"
        f" WHERE t.status = 'finished'{only} ORDER BY {_ORDER}", params)
    results: dict[int, list[Any]] = {}
    for row in await conn.fetch(
            "SELECT r.table_id, r.seat, r.user_id, r.balance, r.place FROM game_results r"
            f" JOIN game_tables t ON t.id = r.table_id WHERE t.status = 'finished'{only}"
            " ORDER BY r.table_id, r.seat", params):
        results.setdefault(row["table_id"], []).append(row)
    games = []
    for t in tables:
        names = json.loads(t["players"]) if t["players"] else []
        games.append(FinishedGame(
            t["id"], t["chat_id"], t["game"], json.loads(t["rules"]), json.loads(t["settings"]),
            tuple(PlayerResult.of(r, names) for r in results.get(t["id"], []))))
    return games
