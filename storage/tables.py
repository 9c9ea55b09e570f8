"""Tables from lobby to end: seats, rules and settings, status, the messages they keep."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from storage import log_sql, timers
from storage import tables_sql as sql
from storage.errors import BadInput, SeatError, WrongStatus
from storage.rows import (
    ACTIVE_STATUSES,
    OPEN_STATUSES,
    UNSET,
    Status,
    TableRow,
    TimerRow,
    Unset,
    Waking,
    dumps,
)
from storage.sql import Conn, Database

MAX_NAME = 64  # characters of a guest's typed name
# Status changes by set_status; finishing goes through finish_game (or the last append).
_TRANSITIONS: dict[str, tuple[str, ...]] = {
    "lobby": ("aborted",),
    "playing": ("paused", "aborted"),
    "paused": ("playing", "aborted"),
}


class TableStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    # Lobby -------------------------------------------------------------------------------

    async def create_table(
        self, chat_id: int, game: str, *, creator_id: int, rules: Mapping[str, Any],
        seat_count: int, settings: Mapping[str, Any] | None = None, thread_id: int = 0,
    ) -> TableRow:
        """A lobby in the chat's topic (the chat row is created if new); TableExists if one
        is open there."""
        rules_text = sql.json_object("rules", rules)
        settings_text = sql.json_object("settings", settings or {})
        check_seat_count(seat_count)

        async def create(conn: Conn) -> TableRow:
            await sql.save_chat(conn, chat_id, {})
            await sql.load_user(conn, creator_id)
            await sql.refuse_second_table(conn, chat_id, thread_id)
            now = time.time()
            table_id = await conn.insert(
                "INSERT INTO game_tables (chat_id, thread_id, game, rules, settings, seat_count,"
                " status, creator_id, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (chat_id, thread_id, game, rules_text, settings_text, seat_count, creator_id,
                 now, now),
            )
            return await sql.load_table(conn, table_id)

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
        conn: Conn, table_id: int, seat: int | None, user_id: int | None,
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
        async def leave(conn: Conn) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError(f"user {user_id} does not sit at table {table_id}")
            return await _free(conn, table_id, seat)

        return await self._db.write(leave)

    async def free_seat(self, table_id: int, seat: int) -> TableRow:
        """Empty a lobby's seat, a user's or a guest's."""
        async def free(conn: Conn) -> TableRow:
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
            check_seat_count(seat_count)
            values["seat_count"] = seat_count

        async def change(conn: Conn) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            if seat_count is not UNSET and any(s.seat >= seat_count for s in table.seats):
                raise SeatError(f"a player sits at a seat beyond {seat_count}")
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def start_game(self, table_id: int, *,
                         rules: Mapping[str, Any] | None = None) -> TableRow:
        """Lobby -> playing: every seat taken; the players' names fixed (the seated users'
        display names now, a guest's typed name). ``rules``: as the game completed them
        (every default written out, so that the game keeps them if defaults change later);
        None keeps the lobby's."""
        rules_text = None if rules is None else sql.json_object("rules", rules)

        async def start(conn: Conn) -> TableRow:
            table = await sql.table_in(conn, table_id, "lobby")
            if len(table.seats) != table.seat_count:
                raise SeatError(f"table {table_id}: {len(table.seats)} of {table.seat_count}"
                                " seats are taken")
            names = [s.guest_name if s.user_id is None else
                     (await sql.load_user(conn, s.user_id)).display_name for s in table.seats]
            values = {"players": dumps(names), "status": "playing", "started_at": time.time()}
            if rules_text is not None:
                values["rules"] = rules_text
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(start)

    # Tables ------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow:
        async with self._db.reading() as conn:
            return await sql.load_table(conn, table_id)

    async def open_table(self, chat_id: int, thread_id: int | None = 0) -> TableRow | None:
        """The table in lobby, playing or paused of the chat's topic (None: any topic)."""
        async with self._db.reading() as conn:
            table_id = await sql.open_table_id(conn, chat_id, thread_id)
            return None if table_id is None else await sql.load_table(conn, table_id)

    async def open_tables(self, *, chat_id: int | None = None,
                          user_id: int | None = None) -> list[TableRow]:
        """Every table in lobby, playing or paused (for timers and messages at start); or
        those of a chat, or those where a user sits."""
        async with self._db.reading() as conn:
            return await sql.open_tables(conn, chat_id, user_id)

    async def count_open(self) -> dict[tuple[str, str], int]:
        """How many tables are open, by game and status (the metrics')."""
        async with self._db.reading() as conn:
            return await sql.count_open(conn)

    async def waking(self, ids: Sequence[int] | None = None) -> list[Waking]:
        """What start-up needs: a light row (no seats, no log) of each open table that may
        have work to do at once: its messages may be behind what is
        stored, it needs attention, or it plays with its next deal to deal or a robot's
        seat. The database sifts them: the Python side sees only those few. ``ids``: only
        among these tables."""
        if ids is not None and not ids:
            return []
        only = "" if ids is None else f" AND id IN ({', '.join(str(int(i)) for i in ids)})"
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                "SELECT * FROM (SELECT id, status, last_seq, shown_at, updated_at,"
                " needs_attention, attention_reason,"
                " (SELECT seq FROM snapshots s WHERE s.table_id = t.id) AS snapshot_seq,"
                " EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.robot = 1)"
                f" AS robot FROM game_tables t WHERE status IN {sql.OPEN}{only}) AS w"
                " WHERE shown_at IS NULL OR shown_at < updated_at OR needs_attention = 1"
                " OR (status = 'playing' AND (last_seq = 0 OR last_seq = snapshot_seq OR robot))"
                " ORDER BY id")
            return [Waking.of(row) for row in rows]

    async def update_table(
        self, table_id: int, *, attention: str | Unset | None = UNSET,
        table_message_id: int | Unset | None = UNSET, timer_deadline: float | Unset | None = UNSET,
        timer_version: int | Unset = UNSET, timer_nudged: bool | Unset = UNSET,
        timer: TimerRow | Unset | None = UNSET, fired: TimerRow | Unset = UNSET,
    ) -> TableRow:
        """Bookkeeping of any table: ``attention`` (a reason, or None to clear), the table
        message id, the turn timer's deadline (Unix seconds), version and whether its
        half-time nudge was sent; ``timer``: its next event from now on (None: none);
        ``fired``: the timer whose firing makes this change (TimerGone, and nothing written,
        if it fired already)."""
        values = sql.changes(table_message_id=table_message_id, timer_deadline=timer_deadline,
                             timer_version=timer_version, timer_nudged=timer_nudged)
        if attention is not UNSET:
            values.update(needs_attention=attention is not None, attention_reason=attention)

        async def change(conn: Conn) -> TableRow:
            await sql.load_table(conn, table_id)
            if fired is not UNSET:
                await timers.consume(conn, fired)
            if timer is not UNSET:
                await timers.set_timer(conn, table_id, timer)
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def set_pinned(self, table_id: int, message_id: int | None) -> None:
        """The group message of the table the bot pinned (None: none is pinned now). Not a
        change of the table."""
        await self._db.write(lambda conn: conn.execute(
            "UPDATE game_tables SET pinned_message_id = ? WHERE id = ?", (message_id, table_id)))

    async def pinned_closed(self) -> list[TableRow]:
        """The finished or aborted tables whose message the bot pinned and has not unpinned
        (a stop came between a game's end and the unpin)."""
        async with self._db.reading() as conn:
            return await sql.load_tables(
                conn, f"status NOT IN {sql.OPEN} AND pinned_message_id IS NOT NULL", ())

    async def mark_shown(self, table_id: int, updated_at: float) -> bool:
        """The table's messages all show it as it was at ``updated_at`` (its row's): a
        restart need not redraw them unless it changed since. Not a change of the table.
        Only a drawing of the row as it is now counts (False: the table changed since, maybe
        in another process, whose clock may be behind this one's)."""
        return bool(await self._db.write(lambda conn: conn.execute(
            sql.MARK_SHOWN, (updated_at, table_id, updated_at))))

    async def set_shown(self, table_id: int, seat: int | None, message_id: int | None,
                        digest: str | None, *, answered: Sequence[int] = (),
                        drawn: float | None = None) -> bool:
        """Which message is the table message (``seat`` None) or a seat's panel, and what it
        shows now: the digest of the screen last sent to it. ``answered``: the shared budget's
        calls answered with it (storage/budgets.py, PostgreSQL); ``drawn``: the table's
        ``updated_at`` that all its messages show with this one, marked (``mark_shown``). One
        statement on PostgreSQL. Not a change of the table. True: marked shown."""
        return await self._db.write(lambda conn: sql.set_shown(
            conn, table_id, seat, message_id, digest, answered, drawn))

    async def set_status(self, table_id: int, status: Status) -> TableRow:
        """Pause, resume or abort (lobby -> aborted, playing <-> paused, either -> aborted).

        Pausing or aborting drops the turn timer: a paused table runs none."""
        async def change(conn: Conn) -> TableRow:
            table = await sql.load_table(conn, table_id)
            if status not in _TRANSITIONS.get(table.status, ()):
                raise WrongStatus(f"table {table_id} is {table.status}: it cannot become {status}")
            values: dict[str, Any] = {"status": status}
            if status in ("paused", "aborted"):
                values["timer_deadline"] = None
                await timers.set_timer(conn, table_id, None)
            if status == "aborted":
                values["finished_at"] = time.time()
            await sql.update(conn, "game_tables", table_id, values)
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def update_settings(self, table_id: int, settings: Mapping[str, Any]) -> TableRow:
        """Replace the table settings (not engine rules: turn time, timeout policy...) of an
        open table; a game's players change them by vote."""
        text = sql.json_object("settings", settings)

        async def change(conn: Conn) -> TableRow:
            await sql.table_in(conn, table_id, *OPEN_STATUSES)
            await sql.update(conn, "game_tables", table_id, {"settings": text})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def set_draft(self, table_id: int, draft: Mapping[str, Any]) -> TableRow:
        """The scorekeeper's deal being entered, as JSON data (the service's draft): a change
        of the playing table, which its message shows."""
        async def change(conn: Conn) -> TableRow:
            await sql.table_in(conn, table_id, "playing")
            await sql.store_draft(conn, table_id, draft)
            await sql.update(conn, "game_tables", table_id, {})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def set_picks(self, table_id: int, seat: int, picks: Collection[str]) -> TableRow:
        """A seat's picks before its player confirms an action (the tokens of the UI steps
        so far): a change of the playing table, which the player's panel shows."""
        async def change(conn: Conn) -> TableRow:
            await sql.table_in(conn, table_id, "playing")
            await sql.store_picks(conn, table_id, seat, picks)
            await sql.update(conn, "game_tables", table_id, {})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def set_robot(self, table_id: int, seat: int, robot: bool) -> TableRow:
        """A substitute robot starts (or stops) playing a user's seat of a game."""
        async def change(conn: Conn) -> TableRow:
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
        async def change(conn: Conn) -> TableRow:
            table = await sql.table_in(conn, table_id, *ACTIVE_STATUSES)
            await sql.load_user(conn, user_id)
            if table.user_of(seat) is None:
                raise SeatError(f"seat {seat} of table {table_id} has no user to replace")
            if table.seat_of(user_id) is not None:
                raise SeatError(f"user {user_id} already sits at seat {table.seat_of(user_id)}")
            await conn.execute(
                "UPDATE seats SET user_id = ?, panel_message_id = NULL, robot = 0,"
                " picks = NULL, shown_digest = NULL WHERE table_id = ? AND seat = ?",
                (user_id, table_id, seat))
            await sql.update(conn, "game_tables", table_id, {})
            return await sql.load_table(conn, table_id)

        return await self._db.write(change)

    async def finish_game(self, table_id: int, settlement: Sequence[float]) -> TableRow:
        """End a playing or paused game with its settlement (one balance per seat)."""
        async def end(conn: Conn) -> TableRow:
            table = await sql.table_in(conn, table_id, *ACTIVE_STATUSES)
            await log_sql.finish(conn, table_id, table.seat_count, settlement)
            return await sql.load_table(conn, table_id)

        return await self._db.write(end)


async def _free(conn: Conn, table_id: int, seat: int) -> TableRow:
    await conn.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
    await sql.update(conn, "game_tables", table_id, {})
    return await sql.load_table(conn, table_id)


def check_seat_count(seat_count: int) -> None:
    if type(seat_count) is not int or not 1 <= seat_count <= 10:
        raise BadInput(f"seat count must be a whole number 1-10, not {seat_count!r}")
