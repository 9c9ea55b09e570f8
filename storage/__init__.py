"""Durable storage on aiosqlite: the action log, results, statistics and votes.

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
    VoteOpen,
    WrongStatus,
)
from storage.rows import UNSET, Entry
from storage.store import DEFAULT_PATH, Storage

__all__ = [
    "DEFAULT_PATH",
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
    "VoteOpen",
    "WrongStatus",
]
