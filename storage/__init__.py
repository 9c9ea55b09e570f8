"""Durable storage on aiosqlite: the action log, restore, results and statistics.

``Storage`` is the whole interface; see storage/store.py.
"""

from storage.errors import (
    BadInput,
    DuplicateSeq,
    InvalidRecord,
    NotFound,
    SchemaTooNew,
    SeatError,
    SeqConflict,
    SeqGap,
    StorageError,
    TableExists,
    WrongStatus,
)
from storage.rows import UNSET, Entry
from storage.store import DEFAULT_PATH, REPLAY_FAILED, Storage

__all__ = [
    "DEFAULT_PATH",
    "REPLAY_FAILED",
    "UNSET",
    "BadInput",
    "DuplicateSeq",
    "Entry",
    "InvalidRecord",
    "NotFound",
    "SchemaTooNew",
    "SeatError",
    "SeqConflict",
    "SeqGap",
    "Storage",
    "StorageError",
    "TableExists",
    "WrongStatus",
]
