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


# What the service computes a game's changes with: the game, and its players' ratings
# before it by (scope, user) (a player new to a scope is not in it); no changes: not rated.
Rater = Callable[[FinishedGame, Mapping[tuple[Scope, int], Skill]], Sequence[RatingChange]]


class RatingStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def rate(self, table_id: int, rater: Rater) -> list[RatingChange]:
        """Rate a finished game: its players' ratings are read and its changes written in
        one transaction, its players' rows locked (on PostgreSQL; SQLite serializes every
        write), so that games rated at the same time each see the other. A game rated
        already (by a rebuild meanwhile) keeps its changes, which are returned."""
        async def rate(conn: Conn) -> list[RatingChange]:
            found = []
            for game in await _finished(conn, table_id):
                await _lock_players(conn, [r.user_id for r in game.results])
                rated = await conn.fetch(
                    "SELECT * FROM rating_changes WHERE table_id = ? ORDER BY scope, seat",
                    (game.table_id,))
                found += ([_change(row) for row in rated] if rated
                          else await _rate(conn, game, rater))
            return found

        return await self._db.write(rate)

    async def rebuild(self, rater: Rater) -> list[RatingChange]:
        """Every rating computed again from the stored results, game by game in rating
        order, in one transaction (every player's row locked, as ``rate`` locks them);
        the changes written."""
        async def rebuild(conn: Conn) -> list[RatingChange]:
            await _lock_players(conn, None)
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


async def _lock_players(conn: Conn, users: Sequence[int | None] | None) -> None:
    """Lock these users' rows (None: every user's) till the transaction ends, in one order
    whoever takes them (SQLite has no row locks: its writes are serialized whole)."""
    ids = [] if users is None else sorted({u for u in users if u is not None})
    if users is not None and not ids:
        return
    where = "" if users is None else f" WHERE id IN ({', '.join('?' * len(ids))})"
    await conn.fetch(f"SELECT id FROM users{where} ORDER BY id{conn.dialect.for_update}",
                     tuple(ids))


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
    marks = ", ".join("?" * len(users))
    rows = await _latest(conn, game, chat_id, f" AND r.user_id IN ({marks})", tuple(users))
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


async def _finished(conn: Conn, table_id: int | None) -> list[FinishedGame]:
    only = "" if table_id is None else " AND t.id = ?"
    params = () if table_id is None else (table_id,)
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
