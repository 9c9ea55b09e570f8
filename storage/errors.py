"""Typed storage errors: each names what was refused and why; nothing is changed."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every refusal by the storage API."""


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the code."""

    def __init__(self, found: int, known: int, path: str) -> None:
        super().__init__(
            f"database {path} has schema version {found}, newer than this code knows ({known}): "
            "upgrade cardtable, or point DATABASE_PATH (DATABASE_URL) at another database"
        )
        self.found = found
        self.known = known


class NotFound(StorageError):
    """No such table (or chat, or user)."""


class WrongStatus(StorageError):
    """The table is not in a status that allows this operation."""


class TableExists(StorageError):
    """The chat already has an open table (lobby, playing or paused)."""

    def __init__(self, chat_id: int, table_id: int) -> None:
        super().__init__(f"chat {chat_id} already has an open table (#{table_id})")
        self.chat_id = chat_id
        self.table_id = table_id


class SeatError(StorageError):
    """A seat that is taken, out of range, or a user already seated."""


class BadInput(StorageError):
    """A malformed argument: a log entry, settings that are not JSON objects, a time zone..."""


class InvalidRecord(StorageError):
    """A record (or a table's rules and players) the engine refuses; the message says why."""


class SeqConflict(StorageError):
    """An append whose sequence number is not the next one of the table's log."""

    def __init__(self, table_id: int, seq: int, last: int, message: str) -> None:
        super().__init__(f"table {table_id}: entry {seq} {message} (the log holds 1-{last})")
        self.table_id = table_id
        self.seq = seq
        self.last = last


class DuplicateSeq(SeqConflict):
    """The entry is already in the log: a retried or doubled update."""

    def __init__(self, table_id: int, seq: int, last: int) -> None:
        super().__init__(table_id, seq, last, "is already stored")


class SeqGap(SeqConflict):
    """The entry would leave a gap: an earlier one is missing."""

    def __init__(self, table_id: int, seq: int, last: int) -> None:
        super().__init__(table_id, seq, last, f"would leave a gap: the next entry is {last + 1}")


class VoteOpen(StorageError):
    """The table already has an open vote."""

    def __init__(self, table_id: int, vote_id: int) -> None:
        super().__init__(f"table {table_id} already has an open vote (#{vote_id})")
        self.table_id = table_id
        self.vote_id = vote_id


class Conflict(StorageError):
    """A write that a uniqueness rule refuses (another process made the same row first)."""


class TimerGone(StorageError):
    """A timer fired that is no longer stored: another process fired it, or the table moved on
    (its change then writes nothing)."""
