"""SQL of history and per-user statistics: indexed queries, no replay."""

from __future__ import annotations

import json

from storage.rows import ContractStats, DealRow, GameRow, PlayerResult, UserStats
from storage.sql import Conn

# Declared, made and failed undertakings of deal_stats rows (made is NULL where not judged).
_OUTCOMES = ("COUNT(*) AS n, COALESCE(SUM(CASE WHEN made = 1 THEN 1 ELSE 0 END), 0) AS made,"
             " COALESCE(SUM(CASE WHEN made = 0 THEN 1 ELSE 0 END), 0) AS failed")


def _in_topic(thread_id: int | None, column: str) -> tuple[str, tuple[int, ...]]:
    """The SQL condition of one forum topic (None: any topic of the chat) and its values."""
    return ("", ()) if thread_id is None else (f" AND {column} = ?", (thread_id,))


async def recent_deals(conn: Conn, chat_id: int, limit: int,
                       thread_id: int | None = None) -> list[DealRow]:
    topic, values = _in_topic(thread_id, "t.thread_id")
    rows = await conn.fetch(
        "SELECT r.table_id, t.game, r.deal_no, r.result, r.finished_at, t.players,"
        f" (SELECT {conn.dialect.json_array('s.seat')} FROM deal_stats s"
        "  WHERE s.table_id = r.table_id AND s.deal_no = r.deal_no AND s.robot = 1) AS robots"
        f" FROM deal_results r JOIN game_tables t ON t.id = r.table_id WHERE t.chat_id = ?{topic}"
        " ORDER BY r.finished_at DESC, r.table_id DESC, r.deal_no DESC LIMIT ?",
        (chat_id, *values, limit),
    )
    return [DealRow(row["table_id"], row["game"], row["deal_no"], json.loads(row["result"]),
                    row["finished_at"], json.loads(row["players"]),
                    tuple(sorted(json.loads(row["robots"])))) for row in rows]


async def recent_games(conn: Conn, chat_id: int, limit: int,
                       thread_id: int | None = None) -> list[GameRow]:
    topic, values = _in_topic(thread_id, "thread_id")
    tables = list(await conn.fetch(
        "SELECT id, game, status, started_at, finished_at, deal_count, players FROM game_tables"
        f" WHERE chat_id = ?{topic} AND status IN ('finished', 'aborted')"
        " ORDER BY finished_at DESC, id DESC LIMIT ?",
        (chat_id, *values, limit),
    ))
    games = []
    for t in tables:
        names = json.loads(t["players"]) if t["players"] else []
        results = await conn.fetch(
            "SELECT seat, user_id, balance, place FROM game_results WHERE table_id = ?"
            " ORDER BY seat", (t["id"],))
        games.append(GameRow(
            t["id"], t["game"], t["status"], t["started_at"], t["finished_at"], t["deal_count"],
            tuple(PlayerResult.of(r, names) for r in results),
        ))
    return games


async def user_stats(conn: Conn, user_id: int, game: str | None) -> list[UserStats]:
    """One UserStats per game kind the user played (or just ``game``)."""
    only = "" if game is None else " AND game = ?"
    params: tuple[object, ...] = (user_id,) if game is None else (user_id, game)
    deals = {row["game"]: row for row in await conn.fetch(
        "SELECT game, COUNT(*) AS deals, SUM(robot) AS robot_deals, SUM(won) AS won,"
        f" SUM(lost) AS lost FROM deal_stats WHERE user_id = ?{only} GROUP BY game", params)}
    contracts: dict[str, dict[int, ContractStats]] = {}
    for row in await conn.fetch(
        f"SELECT game, level, {_OUTCOMES}"
        f" FROM deal_stats WHERE user_id = ?{only} AND level IS NOT NULL"
        " GROUP BY game, level ORDER BY game, level", params):
        contracts.setdefault(row["game"], {})[row["level"]] = ContractStats(
            row["n"], row["made"], row["failed"])
    misers = {row["game"]: ContractStats(row["n"], row["made"], row["failed"])
              for row in await conn.fetch(
        f"SELECT game, {_OUTCOMES}"
        f" FROM deal_stats WHERE user_id = ?{only} AND role = 'declarer' AND kind = 'miser'"
        " GROUP BY game", params)}
    only_t = "" if game is None else " AND t.game = ?"
    games = {row["game"]: row for row in await conn.fetch(
        "SELECT t.game, COUNT(*) AS games, SUM(CASE WHEN r.place = 1 THEN 1 ELSE 0 END) AS first,"
        " SUM(r.balance) AS balance"
        " FROM game_results r JOIN game_tables t ON t.id = r.table_id"
        f" WHERE r.user_id = ?{only_t} GROUP BY t.game", params)}
    stats = []
    for name in sorted(set(deals) | set(games)):
        d, g = deals.get(name), games.get(name)
        stats.append(UserStats(
            game=name,
            games=g["games"] if g else 0,
            first_places=g["first"] if g else 0,
            balance=g["balance"] if g else 0,
            deals=d["deals"] if d else 0,
            robot_deals=d["robot_deals"] if d else 0,
            contracts=contracts.get(name, {}),
            misers=misers.get(name, ContractStats(0, 0, 0)),
            won=d["won"] if d else 0,
            lost=d["lost"] if d else 0,
        ))
    return stats
