"""``Storage``: the one async interface the bot uses. All SQL is behind it.

Games are known here only as record data (records.md); engines are rebuilt
through the engine's public record API (``engine.records``).

How the bot uses it:

- start-up: ``Storage.open(path)``, then ``restore()`` before taking updates
  (it reads under the connection's lock, so writes wait until it is done);
  tables in ``report.failed`` are marked and stay out of play;
- lobby: ``create_table``, ``seat_user``/``unseat_user``, ``update_lobby``,
  ``start_game``; then ``new_match(table.header())`` in the bot;
- each deal and action, under the table's lock: change the match, then
  ``append(table.id, match.version, Entry.deal(match.deals[-1]))`` or
  ``append(..., Entry.action(match.deals[-1]["actions"][-1], user_id=...),
  result=<deal_scored output>, settlement=<game_over settlement>)``, and only
  then announce it. If ``append`` raises anything, the in-memory match is
  ahead of the log: rebuild it with ``load_match(table.id)``;
- an agreed early stop: ``finish_game(table.id, match.report()["settlement"])``;
- scorekeeper mode: guests by name (``seat_guest``); each entered deal is
  appended as ``Entry.deal(match.deals[-1])`` with its result; ``/undo`` and
  ``/edit`` go through ``replace_entered_deals``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import aiosqlite

from engine.base import RecordError
from engine.records import new_match, replay
from storage import log_sql, stats_sql
from storage import tables_sql as sql
from storage.connection import Database
from storage.errors import (
    BadInput,
    InvalidRecord,
    NotFound,
    SeatError,
    StorageError,
    WrongStatus,
)
from storage.record_log import assemble, entries_of
from storage.rows import (
    ACTIVE_STATUSES,
    OPEN_STATUSES,
    UNSET,
    ChatRow,
    DealRow,
    Entry,
    GameRow,
    LeaderRow,
    RestoreReport,
    Status,
    TableRow,
    Unset,
    UserRow,
    UserStats,
    dumps,
)

if TYPE_CHECKING:
    from engine.match import Match

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_PATH = "./cardtable.db"
MAX_NAME = 64  # characters of a guest's typed name
# Prefix of the attention reason restore writes; a later restore that replays clears it.
REPLAY_FAILED = "the record does not replay: "
# Status changes by set_status; finishing goes through finish_game (or the last append).
_TRANSITIONS: dict[str, tuple[str, ...]] = {
    "lobby": ("aborted",),
    "playing": ("paused", "aborted"),
    "paused": ("playing", "aborted"),
}


class Storage:
    """Chats, users, tables, the action log, results and statistics in one SQLite file."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @classmethod
    async def open(cls, path: str = DEFAULT_PATH) -> Storage:
        """Open (or create) the database and run its migrations; SchemaTooNew if it is newer."""
        return cls(await Database.open(path))

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # Chats and users ---------------------------------------------------------------------

    async def save_chat(
        self, chat_id: int, *, language: str | Unset | None = UNSET,
        time_zone: str | Unset | None = UNSET, quiet_hours: str | Unset | None = UNSET,
        table_defaults: Mapping[str, Any] | Unset = UNSET,
    ) -> ChatRow:
        """Create the chat if new and change the given settings (``quiet_hours`` "23:00-08:00")."""
        values = sql.chat_values(language, time_zone, quiet_hours, table_defaults)
        return await self._db.write(lambda conn: sql.save_chat(conn, chat_id, values))

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        return await self._find(sql.load_chat, chat_id)

    async def save_user(
        self, user_id: int, *, display_name: str | Unset = UNSET,
        username: str | Unset | None = UNSET, language: str | Unset | None = UNSET,
        has_started_bot: bool | Unset = UNSET,
    ) -> UserRow:
        """Create the user if new (a display name is then required) and change the given fields."""
        values = sql.changes(display_name=display_name, username=username, language=language,
                             has_started_bot=has_started_bot)
        return await self._db.write(lambda conn: sql.save_user(conn, user_id, values))

    async def get_user(self, user_id: int) -> UserRow | None:
        return await self._find(sql.load_user, user_id)

    async def find_user(self, username: str) -> UserRow | None:
        """The user with this Telegram username (any case, with or without the @)."""
        async with self._db.reading() as conn:
            row = await sql.one(conn, "SELECT * FROM users WHERE username = ? COLLATE NOCASE"
                                " ORDER BY updated_at DESC LIMIT 1", (username.lstrip("@"),))
            return None if row is None else UserRow.of(row)

    async def _find(
        self, load: Callable[[aiosqlite.Connection, int], Awaitable[T]], key: int
    ) -> T | None:
        async with self._db.reading() as conn:
            try:
                return await load(conn, key)
            except NotFound:
                return None

    async def migrate_chat(self, old_id: int, new_id: int) -> bool:
        """Group -> supergroup: move the chat, its settings and all its tables to ``new_id``.

        Idempotent (Telegram reports a migration from both sides): False when
        there is nothing left under ``old_id``. If ``new_id`` already has a row,
        the old chat's settings replace it.
        """
        async def move(conn: aiosqlite.Connection) -> bool:
            old = await sql.one(conn, "SELECT * FROM chats WHERE id = ?", (old_id,))
            if old is None or old_id == new_id:
                return False
            if await sql.open_table_id(conn, old_id) is not None:
                await sql.refuse_second_table(conn, new_id)
            await conn.execute(
                "INSERT INTO chats (id, language, time_zone, quiet_hours, table_defaults,"
                " created_at, updated_at) SELECT ?, language, time_zone, quiet_hours,"
                " table_defaults, created_at, ? FROM chats WHERE id = ?"
                " ON CONFLICT(id) DO UPDATE SET language = excluded.language,"
                " time_zone = excluded.time_zone, quiet_hours = excluded.quiet_hours,"
                " table_defaults = excluded.table_defaults, updated_at = excluded.updated_at",
                (new_id, time.time(), old_id),
            )
            await conn.execute("UPDATE game_tables SET chat_id = ? WHERE chat_id = ?",
                               (new_id, old_id))
            await conn.execute("DELETE FROM chats WHERE id = ?", (old_id,))
            return True

        return await self._db.write(move)

    # Lobby -------------------------------------------------------------------------------

    async def create_table(
        self, chat_id: int, game: str, *, creator_id: int, rules: Mapping[str, Any],
        seat_count: int, settings: Mapping[str, Any] | None = None,
    ) -> TableRow:
        """A lobby in the chat (the chat row is created if new); TableExists if one is open."""
        rules_text = sql.json_object("rules", rules)
        settings_text = sql.json_object("settings", settings or {})
        _check_seat_count(seat_count)

        async def create(conn: aiosqlite.Connection) -> TableRow:
            await sql.save_chat(conn, chat_id, {})
            await sql.load_user(conn, creator_id)
            await sql.refuse_second_table(conn, chat_id)
            now = time.time()
            cursor = await conn.execute(
                "INSERT INTO game_tables (chat_id, game, rules, settings, seat_count, status,"
                " creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (chat_id, game, rules_text, settings_text, seat_count, creator_id, now, now),
            )
            assert cursor.lastrowid is not None
            return await sql.load_table(conn, cursor.lastrowid)

        return await self._db.write(create)

    async def seat_user(self, table_id: int, user_id: int, seat: int | None = None) -> TableRow:
        """Seat a user in the lobby, at ``seat`` or the first free one."""
        return await self._db.write(lambda conn: self._sit(conn, table_id, seat, user_id, None))

    async def seat_guest(self, table_id: int, name: str, seat: int | None = None) -> TableRow:
        """Seat a player known by a typed name only (scorekeeper mode), unique at the table."""
        name = name.strip() if isinstance(name, str) else ""
        if not 1 <= len(name) <= MAX_NAME:
            raise BadInput(f"a player's name must be 1-{MAX_NAME} characters")
        return await self._db.write(lambda conn: self._sit(conn, table_id, seat, None, name))

    @staticmethod
    async def _sit(
        conn: aiosqlite.Connection, table_id: int, seat: int | None, user_id: int | None,
        guest_name: str | None,
    ) -> TableRow:
        table = await sql.table_in(conn, table_id, "lobby")
        if user_id is not None:
            await sql.load_user(conn, user_id)
            if table.seat_of(user_id) is not None:
                raise SeatError(f"user {user_id} already sits at seat {table.seat_of(user_id)}")
        elif any((s.guest_name or "").casefold() == str(guest_name).casefold()
                 for s in table.seats):
            raise SeatError(f"{guest_name} already sits at table {table_id}")
        taken = {s.seat for s in table.seats}
        free = [s for s in range(table.seat_count) if s not in taken]
        if seat is None and not free:
            raise SeatError(f"table {table_id} is full")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise SeatError(f"seat {chosen} is taken or not one of 0-{table.seat_count - 1}")
        await conn.execute(
            "INSERT INTO seats (table_id, seat, user_id, guest_name) VALUES (?, ?, ?, ?)",
            (table_id, chosen, user_id, guest_name))
        await sql.update(conn, "game_tables", table_id, {})
        return await sql.load_table(conn, table_id)

    async def unseat_user(self, table_id: int, user_id: int) -> TableRow:
        """A user leaves the lobby."""
        async def leave(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError(f"user {user_id} does not sit at table {table_id}")
            return await _free(conn, table_id, seat)

        return await self._db.write(leave)

    async def free_seat(self, table_id: int, seat: int) -> TableRow:
        """Empty a lobby's seat, a user's or a guest's."""
        async def free(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            if all(s.seat != seat for s in table.seats):
                raise SeatError(f"seat {seat} of table {table_id} is empty")
            return await _free(conn, table_id, seat)

        return await self._db.write(free)

    async def update_lobby(
        self, table_id: int, *, rules: Mapping[str, Any] | Unset = UNSET,
        settings: Mapping[str, Any] | Unset = UNSET, seat_count: int | Unset = UNSET,
    ) -> TableRow:
        """Change a lobby's rules, settings or seat count (not below a taken seat)."""
        values: dict[str, Any] = {}
        if rules is not UNSET:
            values["rules"] = sql.json_object("rules", rules)
        if settings is not UNSET:
            values["settings"] = sql.json_object("settings", settings)
        if seat_count is not UNSET:
            _check_seat_count(seat_count)
            values["seat_count"] = seat_count

        async def change(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            if seat_count is not UNSET and any(s.seat >= seat_count for s in table.seats):
                raise SeatError(f"a player sits at a seat beyond {seat_count}")
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def start_game(self, table_id: int) -> TableRow:
        """Lobby -> playing: every seat taken; rules and players checked by the engine and fixed.

        The players' names are the seated users' display names now (a guest's
        typed name); the rules
        are stored complete (every default written out), so that the game
        keeps them if defaults change later.
        """
        async def start(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            if len(table.seats) != table.seat_count:
                raise SeatError(f"table {table_id}: {len(table.seats)} of {table.seat_count}"
                                " seats are taken")
            names = [s.guest_name if s.user_id is None else
                     (await sql.load_user(conn, s.user_id)).display_name for s in table.seats]
            try:
                match = new_match({"game": table.game, "rules": table.rules, "players": names})
            except RecordError as exc:
                raise InvalidRecord(f"table {table_id}: {exc}") from None
            now = time.time()
            await sql.update(conn, "game_tables", table_id, {
                "rules": dumps(match.rules.to_dict()), "players": dumps(names),
                "status": "playing", "started_at": now,
            })
            return await sql.load_table(conn, table_id)

        return await self._db.write(start)

    # Tables ------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow:
        async with self._db.reading() as conn:
            return await sql.load_table(conn, table_id)

    async def open_table(self, chat_id: int) -> TableRow | None:
        """The chat's table in lobby, playing or paused, if any."""
        async with self._db.reading() as conn:
            table_id = await sql.open_table_id(conn, chat_id)
            return None if table_id is None else await sql.load_table(conn, table_id)

    async def open_tables(self) -> list[TableRow]:
        """Every table in lobby, playing or paused (for timers and messages at start)."""
        async with self._db.reading() as conn:
            return await sql.open_tables(conn)

    async def update_table(
        self, table_id: int, *, attention: str | Unset | None = UNSET,
        table_message_id: int | Unset | None = UNSET, timer_deadline: float | Unset | None = UNSET,
        timer_version: int | Unset = UNSET, table_message_digest: str | Unset | None = UNSET,
        timer_nudged: bool | Unset = UNSET,
    ) -> TableRow:
        """Bookkeeping of any table: ``attention`` (a reason, or None to clear), the table
        message id and the digest of what it shows, the timer's deadline (Unix seconds),
        version and whether its half-time nudge was sent."""
        values = sql.changes(table_message_id=table_message_id, timer_deadline=timer_deadline,
                             timer_version=timer_version,
                             table_message_digest=table_message_digest, timer_nudged=timer_nudged)
        if attention is not UNSET:
            values.update(needs_attention=attention is not None, attention_reason=attention)

        async def change(conn: aiosqlite.Connection) -> TableRow:
            await sql.load_table(conn, table_id)
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def set_panel_message(self, table_id: int, seat: int, message_id: int | None,
                                digest: str | None = None) -> None:
        """The seat's panel message and the digest of what it shows."""
        async def change(conn: aiosqlite.Connection) -> None:
            cursor = await conn.execute(
                "UPDATE seats SET panel_message_id = ?, panel_digest = ?"
                " WHERE table_id = ? AND seat = ?",
                (message_id, digest, table_id, seat))
            if cursor.rowcount == 0:
                raise NotFound(f"table {table_id} has no seat {seat}")

        await self._db.write(change)

    async def set_status(self, table_id: int, status: Status) -> TableRow:
        """Pause, resume or abort (lobby -> aborted, playing <-> paused, either -> aborted).

        Pausing or aborting drops the turn timer: a paused table runs none."""
        async def change(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.load_table(conn, table_id)
            if status not in _TRANSITIONS.get(table.status, ()):
                raise WrongStatus(f"table {table_id} is {table.status}: it cannot become {status}")
            values: dict[str, Any] = {"status": status}
            if status in ("paused", "aborted"):
                values["timer_deadline"] = None
            if status == "aborted":
                values["finished_at"] = time.time()
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def update_settings(self, table_id: int, settings: Mapping[str, Any]) -> TableRow:
        """Replace the table settings (not engine rules: turn time, timeout policy...) of an
        open table; a game's players change them by vote."""
        text = sql.json_object("settings", settings)

        async def change(conn: aiosqlite.Connection) -> TableRow:
            await sql.table_in(conn, table_id, *OPEN_STATUSES)
            await sql.update(conn, "game_tables", table_id, {"settings": text})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def set_robot(self, table_id: int, seat: int, robot: bool) -> TableRow:
        """A substitute robot starts (or stops) playing a user's seat of a game."""
        async def change(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, *ACTIVE_STATUSES)
            if table.user_of(seat) is None:
                raise SeatError(f"seat {seat} of table {table_id} has no user for a robot to"
                                " stand in for")
            await conn.execute("UPDATE seats SET robot = ? WHERE table_id = ? AND seat = ?",
                               (int(robot), table_id, seat))
            await sql.update(conn, "game_tables", table_id, {})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def replace_player(self, table_id: int, seat: int, user_id: int) -> TableRow:
        """Seat ``user_id`` in a game in place of the seat's user.

        The record's player names stay as they were at the start; statistics of deals
        finished from now on, and the game's result, go to the new user. The seat's
        panel message is the old user's: it is forgotten, and no robot plays the seat.
        """
        async def change(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, *ACTIVE_STATUSES)
            await sql.load_user(conn, user_id)
            if table.user_of(seat) is None:
                raise SeatError(f"seat {seat} of table {table_id} has no user to replace")
            if table.seat_of(user_id) is not None:
                raise SeatError(f"user {user_id} already sits at seat {table.seat_of(user_id)}")
            await conn.execute(
                "UPDATE seats SET user_id = ?, panel_message_id = NULL, panel_digest = NULL,"
                " robot = 0 WHERE table_id = ? AND seat = ?", (user_id, table_id, seat))
            await sql.update(conn, "game_tables", table_id, {})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def finish_game(self, table_id: int, settlement: Sequence[float]) -> TableRow:
        """End a playing or paused game with its settlement (one balance per seat)."""
        async def end(conn: aiosqlite.Connection) -> TableRow:
            table = await sql.table_in(conn, table_id, *ACTIVE_STATUSES)
            await log_sql.finish(conn, table_id, table.seat_count, settlement)
            return await sql.load_table(conn, table_id)

        return await self._db.write(end)

    # The log -----------------------------------------------------------------------------

    async def append(
        self, table_id: int, seq: int, entry: Entry, *,
        result: Mapping[str, Any] | None = None, settlement: Sequence[float] | None = None,
    ) -> None:
        """Store one log entry durably; return only once it is committed.

        ``seq`` is the entry's number: exactly one more than the last stored
        (it equals ``Match.version`` after the change). A stored number raises
        DuplicateSeq, a larger one SeqGap; nothing is written then. With the
        action that ends a deal pass ``result`` (the deal's output object), with
        the one that ends the game also ``settlement``: they commit together.
        If the caller is cancelled while waiting, the entry may still commit.
        """
        await self._db.write(
            lambda conn: log_sql.append(conn, table_id, seq, entry, result, settlement))

    async def replace_entered_deals(
        self, table_id: int, from_deal: int, deals: Sequence[Mapping[str, Any]],
        outputs: Sequence[Mapping[str, Any]], *, expected_last: int,
        settlement: Sequence[float] | None = None,
    ) -> TableRow:
        """Scorekeeper ``/undo`` and ``/edit``: replace the entered deals from ``from_deal``
        (0-based) on by ``deals`` (record objects) scored as ``outputs``.

        With ``new = engine.manual.undo(match)`` or ``edit(match, n, entry)``:
        ``replace_entered_deals(id, k, new.deals[k:], new.outputs[k:],
        expected_last=match.version, settlement=...)`` where ``k`` is the first
        deal that changed (``len(new.deals)`` for an undo, ``n - 1`` for an
        edit). Refused (SeqConflict) if the log moved on since ``match``, and
        (BadInput) if a deal to remove was played with the bot. A finished
        game becomes playing again unless ``settlement`` ends it anew.
        """
        await self._db.write(lambda conn: log_sql.replace_entered(
            conn, table_id, from_deal, expected_last, deals, outputs, settlement))
        return await self.get_table(table_id)

    async def export_record(self, table_id: int) -> dict[str, Any]:
        """The table's game record (records.md), from the log alone."""
        async with self._db.reading() as conn:
            table = await sql.load_table(conn, table_id)
            if table.players is None:
                raise WrongStatus(f"table {table_id} has not started")
            return assemble(table.header(), await log_sql.log_of(conn, table_id))

    async def import_record(
        self, chat_id: int, record: Mapping[str, Any], *, creator_id: int | None = None,
        user_ids: Sequence[int | None] | None = None,
    ) -> TableRow:
        """Store a record as a table of the chat after replaying it.

        A finished game is stored finished with its results and settlement; an
        unfinished one as paused (so the chat must have no open table). The
        stored log is the replayed match's record (canonical card text).
        """
        match = _replayed(record, "the record")
        seats = len(match.players)
        users = list(user_ids) if user_ids is not None else [None] * seats
        if len(users) != seats:
            raise BadInput(f"{len(users)} user ids for {seats} players")
        canonical = match.record()
        report = match.report()

        async def store(conn: aiosqlite.Connection) -> TableRow:
            await sql.save_chat(conn, chat_id, {})
            for user_id in users:
                if user_id is not None:
                    await sql.load_user(conn, user_id)
            if not match.over:
                await sql.refuse_second_table(conn, chat_id)
            now = time.time()
            cursor = await conn.execute(
                "INSERT INTO game_tables (chat_id, game, rules, seat_count, players, status,"
                " creator_id, created_at, updated_at, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, match.spec.name, dumps(canonical["rules"]), seats,
                 dumps(canonical["players"]), "finished" if match.over else "paused",
                 creator_id, now, now, now),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id) VALUES (?, ?, ?)",
                [(table_id, seat, user) for seat, user in enumerate(users)])
            await log_sql.insert_entries(conn, table_id, entries_of(canonical), seats)
            for deal_no, output in enumerate(match.outputs):
                await log_sql.store_result(conn, table_id, match.spec.name, seats, deal_no, output)
            if match.over:
                await log_sql.finish(conn, table_id, seats, report["settlement"])
            return await sql.load_table(conn, table_id)

        return await self._db.write(store)

    # Restore -----------------------------------------------------------------------------

    async def load_match(self, table_id: int) -> Match:
        """Rebuild one table's match from its log; InvalidRecord if it does not replay."""
        async with self._db.reading() as conn:
            table = await sql.load_table(conn, table_id)
            if table.players is None:
                raise WrongStatus(f"table {table_id} has not started")
            return _rebuilt(table, await log_sql.log_of(conn, table_id))

    async def restore(self) -> RestoreReport:
        """Every open table, and a match rebuilt for each playing or paused one.

        A table whose log does not replay is marked as needing attention (the
        reason starts with REPLAY_FAILED) and reported in ``failed``; the
        others are not touched. One that replays again loses that mark.
        """
        report = RestoreReport()
        async with self._db.reading() as conn:
            for table in await sql.open_tables(conn):
                report.tables[table.id] = table
                if table.status == "lobby":
                    continue
                try:
                    report.matches[table.id] = _rebuilt(table, await log_sql.log_of(conn, table.id))
                except Exception as exc:  # one bad table must never stop the others
                    log.exception("table %s does not replay", table.id)
                    report.failed[table.id] = str(exc) or type(exc).__name__
        cleared = [t for t in report.matches if (report.tables[t].attention_reason or "")
                   .startswith(REPLAY_FAILED)]
        for table_id, reason in report.failed.items():
            report.tables[table_id] = await self.update_table(
                table_id, attention=REPLAY_FAILED + reason)
        for table_id in cleared:
            report.tables[table_id] = await self.update_table(table_id, attention=None)
        return report

    # History and statistics --------------------------------------------------------------

    async def recent_deals(self, chat_id: int, limit: int = 10) -> list[DealRow]:
        """The chat's last finished deals, newest first."""
        async with self._db.reading() as conn:
            return await stats_sql.recent_deals(conn, chat_id, limit)

    async def recent_games(self, chat_id: int, limit: int = 10) -> list[GameRow]:
        """The chat's last finished or aborted games, newest first, with their results."""
        async with self._db.reading() as conn:
            return await stats_sql.recent_games(conn, chat_id, limit)

    async def user_stats(self, user_id: int, game: str | None = None) -> list[UserStats]:
        async with self._db.reading() as conn:
            return await stats_sql.user_stats(conn, user_id, game)

    async def leaderboard(
        self, chat_id: int, game: str, *, min_games: int = 3, limit: int = 10
    ) -> list[LeaderRow]:
        """The chat's players by settled balance per finished game (at least ``min_games``)."""
        async with self._db.reading() as conn:
            return await stats_sql.leaderboard(conn, chat_id, game, min_games, limit)


async def _free(conn: aiosqlite.Connection, table_id: int, seat: int) -> TableRow:
    await conn.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
    await sql.update(conn, "game_tables", table_id, {})
    return await sql.load_table(conn, table_id)


def _check_seat_count(seat_count: int) -> None:
    if type(seat_count) is not int or not 1 <= seat_count <= 10:
        raise BadInput(f"seat count must be a whole number 1-10, not {seat_count!r}")


def _replayed(record: Mapping[str, Any], what: str) -> Match:
    try:
        return replay(record)
    except RecordError as exc:
        raise InvalidRecord(f"{what}: {exc}") from None


def _rebuilt(table: TableRow, log: list[tuple[str, dict[str, Any]]]) -> Match:
    """Replay a table's log; the match must account for every entry."""
    match = _replayed(assemble(table.header(), log), f"table {table.id}")
    if match.version != table.last_seq:
        raise StorageError(f"table {table.id}: the log replays to version {match.version},"
                           f" the table says {table.last_seq}")
    return match
