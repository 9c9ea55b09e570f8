"""The SQLite schema as numbered migrations, applied in order at start (storage/migrate.py).

``MIGRATIONS[i]`` brings the database from version ``i`` to ``i + 1``; its
statements run in one transaction together with the version row. Never edit a
released migration: append a new one.

Times are Unix seconds (REAL). JSON columns hold compact JSON text.
"""

from __future__ import annotations

from storage.migrate import timers_from_tables

_V1 = (
    """CREATE TABLE chats (
        id INTEGER PRIMARY KEY,
        language TEXT,
        time_zone TEXT,
        quiet_hours TEXT,
        table_defaults TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    )""",
    """CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        display_name TEXT NOT NULL,
        username TEXT,
        language TEXT,
        has_started_bot INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    )""",
    # One row per table, from its lobby to its end: the game it plays and its log's head.
    """CREATE TABLE game_tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        settings TEXT NOT NULL DEFAULT '{}',
        seat_count INTEGER NOT NULL CHECK (seat_count BETWEEN 1 AND 10),
        players TEXT,
        status TEXT NOT NULL
            CHECK (status IN ('lobby', 'playing', 'paused', 'finished', 'aborted')),
        needs_attention INTEGER NOT NULL DEFAULT 0,
        attention_reason TEXT,
        table_message_id INTEGER,
        timer_deadline REAL,
        timer_version INTEGER NOT NULL DEFAULT 0,
        creator_id INTEGER REFERENCES users(id),
        last_seq INTEGER NOT NULL DEFAULT 0,
        deal_count INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        started_at REAL,
        finished_at REAL
    )""",
    """CREATE UNIQUE INDEX game_tables_one_open_per_chat ON game_tables(chat_id)
        WHERE status IN ('lobby', 'playing', 'paused')""",
    "CREATE INDEX game_tables_by_chat ON game_tables(chat_id, game, status)",
    "CREATE INDEX game_tables_by_status ON game_tables(status)",
    """CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER REFERENCES users(id),
        panel_message_id INTEGER,
        PRIMARY KEY (table_id, seat)
    ) WITHOUT ROWID""",
    "CREATE UNIQUE INDEX seats_one_per_user ON seats(table_id, user_id)",
    # The append-only action log: deal starts and actions, as records.md objects.
    """CREATE TABLE log_entries (
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        seq INTEGER NOT NULL CHECK (seq >= 1),
        kind TEXT NOT NULL CHECK (kind IN ('deal', 'action')),
        deal_no INTEGER NOT NULL,
        seat INTEGER,
        payload TEXT NOT NULL,
        user_id INTEGER,
        robot INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID""",
    # A finished deal's replay output object, as the engine reported it.
    """CREATE TABLE deal_results (
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        deal_no INTEGER NOT NULL,
        result TEXT NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (table_id, deal_no)
    ) WITHOUT ROWID""",
    # One line per seat and finished deal, so that /stats needs no replay (storage/deal_stats.py).
    """CREATE TABLE deal_stats (
        table_id INTEGER NOT NULL,
        deal_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER REFERENCES users(id),
        game TEXT NOT NULL,
        kind TEXT NOT NULL,
        role TEXT NOT NULL,
        contract TEXT,
        level INTEGER,
        made INTEGER,
        tricks INTEGER,
        won REAL NOT NULL,
        lost REAL NOT NULL,
        robot INTEGER NOT NULL,  -- a robot chose an action for this seat's user in the deal
        PRIMARY KEY (table_id, deal_no, seat),
        FOREIGN KEY (table_id, deal_no) REFERENCES deal_results(table_id, deal_no)
    ) WITHOUT ROWID""",
    "CREATE INDEX deal_stats_by_user ON deal_stats(user_id, game)",
    # A finished game's settlement, one row per seat.
    """CREATE TABLE game_results (
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        seat INTEGER NOT NULL,
        user_id INTEGER REFERENCES users(id),
        balance REAL NOT NULL,
        place INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    ) WITHOUT ROWID""",
    "CREATE INDEX game_results_by_user ON game_results(user_id)",
)

# Players known by a typed name only (scorekeeper mode): a seat without a user.
_V2 = ("ALTER TABLE seats ADD COLUMN guest_name TEXT",)

# What the bot last showed in each message it keeps up to date, so that after a restart
# it edits only what changed ("message is not modified" is never provoked).
_V3 = (
    "ALTER TABLE game_tables ADD COLUMN table_message_digest TEXT",
    "ALTER TABLE seats ADD COLUMN panel_digest TEXT",
)

# Long games (issue 9): a substitute robot plays a seat until its player returns, and the
# turn timer's half-time nudge is remembered, so that a restart never sends it twice.
_V4 = (
    "ALTER TABLE seats ADD COLUMN robot INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE game_tables ADD COLUMN timer_nudged INTEGER NOT NULL DEFAULT 0",
)

# The bot redesign (issue 15): votes are stored, so that their buttons work after a restart;
# a table lives in a forum topic (``thread_id``, 0 outside topics), one open table per topic;
# what a message shows is kept in memory only (the digests of V3 go): ``shown_at`` is the
# table's ``updated_at`` when all its messages last showed it, so that a restart redraws only
# the tables whose messages may be behind.
_V5 = (
    """CREATE TABLE votes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        kind TEXT NOT NULL,
        initiator INTEGER NOT NULL,
        voters TEXT NOT NULL,
        agreed TEXT NOT NULL DEFAULT '[]',
        params TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'passed', 'refused', 'void')),
        message_id INTEGER,
        created_at REAL NOT NULL,
        closed_at REAL
    )""",
    "CREATE UNIQUE INDEX votes_one_open_per_table ON votes(table_id) WHERE status = 'open'",
    "ALTER TABLE game_tables ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0",
    "DROP INDEX game_tables_one_open_per_chat",
    """CREATE UNIQUE INDEX game_tables_one_open_per_topic ON game_tables(chat_id, thread_id)
        WHERE status IN ('lobby', 'playing', 'paused')""",
    "ALTER TABLE game_tables DROP COLUMN table_message_digest",
    "ALTER TABLE game_tables ADD COLUMN shown_at REAL",
    "ALTER TABLE seats DROP COLUMN panel_digest",
)

# Restore without replaying history (issue 18): the match as it stood at its last deal's end
# (the sheet, the deal count, the version), written with the entry that ended that deal;
# tables are loaded when first touched (by a player: seats_by_user).
_V6 = (
    """CREATE TABLE snapshots (
        table_id INTEGER PRIMARY KEY REFERENCES game_tables(id),
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        created_at REAL NOT NULL
    )""",
    "CREATE INDEX seats_by_user ON seats(user_id)",  # a player's tables, loaded on his touch
)

# Ratings (issue 20): each rated game's change of its players' ratings, per seat, in a
# group's scope (``group``: the game's chat) and across all groups (``all``). A rating is a
# skill estimate ``mu`` with its uncertainty ``sigma``; the current one is a player's row of
# his last rated game (by the game's ``finished_at``, then its id). The service computes
# them; this is data only, recomputed from game_results by ``python -m bot.ratings rebuild``.
_V7 = (
    """CREATE TABLE rating_changes (
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        seat INTEGER NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('group', 'all')),
        user_id INTEGER NOT NULL REFERENCES users(id),
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (table_id, scope, seat),
        FOREIGN KEY (table_id, seat) REFERENCES game_results(table_id, seat)
    )""",
    "CREATE INDEX rating_changes_by_user ON rating_changes(user_id, scope)",
    # a game and those of its kind that finished after it (rated again after it)
    "CREATE INDEX game_tables_by_finish ON game_tables(game, finished_at)",
)

# Timers as rows (issue 18): a table's next turn-timer event (the half-time nudge or the
# deadline) for the match version it was set for, so that start-up reads only the timers due
# soon (by ``due_at``) and any process may fire a due one (``claimed_until``: a process is
# firing it). The timers stored with the tables move here.
_V8 = (
    """CREATE TABLE timers (
        table_id INTEGER PRIMARY KEY REFERENCES game_tables(id),
        kind TEXT NOT NULL CHECK (kind IN ('nudge', 'deadline')),
        due_at REAL NOT NULL,
        version INTEGER NOT NULL,
        deadline REAL NOT NULL,
        claimed_until REAL
    )""",
    "CREATE INDEX timers_by_due ON timers(due_at)",
    timers_from_tables("COALESCE(json_extract(settings, '$.turn_time'), 0)",
                       "COALESCE(json_extract(settings, '$.reminders'), 1) = 1"),
)

# The group as the bot finds it again after a restart (issue 17): the message of a table the
# bot pinned (so that it neither pins it again nor forgets to unpin it; kept until unpinned,
# also after the game), what a vote's message asks (so that its outcome is written under
# it whenever the vote ends), and a group's title and public username (a private panel
# links back to the group's table message, or names a group that cannot be linked).
_V9 = (
    "ALTER TABLE game_tables ADD COLUMN pinned_message_id INTEGER",
    "ALTER TABLE votes ADD COLUMN question TEXT",
    "ALTER TABLE chats ADD COLUMN title TEXT",
    "ALTER TABLE chats ADD COLUMN username TEXT",
)

# Each group's calls of the last minute (issue 16), so that the process after a restart
# knows what Telegram still counts (storage/budgets.py; PostgreSQL's since its _V5).
_V10 = (
    """CREATE TABLE chat_calls (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        at REAL NOT NULL
    )""",
    "CREATE INDEX chat_calls_by_chat ON chat_calls(chat_id, at)",
)

# The scorekeeper's deal being entered (issue 18): the presses so far as JSON data (the
# service's ``Draft``), written with the press that made them, so that a restart, or another
# worker, goes on from them (NULL: none stored yet).
_V11 = (
    "ALTER TABLE game_tables ADD COLUMN draft TEXT",
)

# A player's picks before he confirms an action (issue 18; the Preferans discard, card by
# card): a JSON list of the step tokens, written with the press that changes them and cleared
# with the action that ends them, so that a restart, or another worker, shows them and goes
# on from them (NULL: none).
_V12 = (
    "ALTER TABLE seats ADD COLUMN picks TEXT",
)

# What the bot learned of Telegram, for every process and the next start (issue 31): the
# digest of the command menus it set, the groups where it may not pin (storage/marks.py).
_V13 = (
    "CREATE TABLE marks (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)

# What the table message and each panel show, as the digest of the screen last sent (issue 31):
# a worker that takes a table over, or a restart, edits only a message that shows otherwise.
_V14 = (
    "ALTER TABLE game_tables ADD COLUMN shown_digest TEXT",
    "ALTER TABLE seats ADD COLUMN shown_digest TEXT",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9,
                                           _V10, _V11, _V12, _V13, _V14)
