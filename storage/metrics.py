"""Storage's own metric (Prometheus, the process's default registry): how long a write's
transaction takes to its durable commit."""

from __future__ import annotations

from prometheus_client import Histogram

COMMIT_SECONDS = Histogram(
    "cardtable_commit_seconds",
    "Seconds of a write transaction to its durable commit (SQLite: a group-commit batch; "
    "PostgreSQL: a write, or the commit of a worker's unit of work)", ["backend"])
SQLITE_COMMIT = COMMIT_SECONDS.labels("sqlite")
POSTGRES_COMMIT = COMMIT_SECONDS.labels("postgresql")
