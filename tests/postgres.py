"""A throwaway PostgreSQL server for the tests: the machine's own binaries, a temporary data
directory, a loopback port, no network; started on first use, stopped at the end.

PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` user
the package made (or a system user made here if there is none), its directory owned
by that user. Durability settings are the server's defaults except ``fsync``: the tests
kill the bot's processes, never the server's machine.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import asyncpg

USER = "cardtable"  # the database role
FALLBACK_OS_USER = "cardtable-pg"


def find_binaries() -> Path | None:
    """The folder of initdb and pg_ctl (PG_BIN, the PATH, or Debian's install), or None."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def binaries() -> Path:
    found = find_binaries()
    if found is None:
        raise RuntimeError("PostgreSQL is not installed: the tests need initdb and pg_ctl "
                           "(python -m tests installs it, or set PG_BIN)")
    return found


def _os_user() -> str | None:
    """Whom the server runs as: None for the current user, unless that is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", FALLBACK_OS_USER):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    FALLBACK_OS_USER], check=True)
    return FALLBACK_OS_USER


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    def __init__(self, *, options: str = "") -> None:
        """``options``: more of the server's (``-c name=value``), as the bench's statistics."""
        self.bin = binaries()
        self.user = _os_user()
        self.root = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self._options = ""
        self._extra = options
        self._databases = 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, cwd=self.root)

    def start(self) -> PostgresServer:
        if self.user:
            shutil.chown(self.root, self.user)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust",
                  "-E", "UTF8", "--no-sync", "--locale=C")
        for attempt in range(5):
            self.port = _free_port()
            options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root}"
                       f" -c fsync=off -c max_connections=200 -c shared_buffers=32MB {self._extra}")
            try:
                self._pg_ctl("-o", options, "-l", str(self.root / "log"), "-w", "-t", "60",
                             "start")
                self._options = options
                return self
            except subprocess.CalledProcessError:
                if attempt == 4:
                    raise RuntimeError("PostgreSQL did not start: "
                                       + (self.root / "log").read_text()[-2000:]) from None
        raise AssertionError("unreachable")

    def _pg_ctl(self, *args: str) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), *args)

    def halt(self) -> None:
        """Stop the server (its connections dropped), keeping its data: ``resume`` starts it
        again on the same port."""
        self._pg_ctl("-m", "fast", "-w", "stop")

    def resume(self) -> None:
        self._pg_ctl("-o", self._options, "-l", str(self.root / "log"), "-w", "-t", "60",
                     "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._pg_ctl("-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    async def new_database(self) -> str:
        """A new empty database; its URL."""
        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}_{time.monotonic_ns() % 10**6}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)


class LazyServer:
    """The session's server, started when a test first asks for a database."""

    def __init__(self) -> None:
        self._server: PostgresServer | None = None

    async def new_database(self) -> str:
        if self._server is None:
            self._server = PostgresServer().start()
        return await self._server.new_database()

    @property
    def server(self) -> PostgresServer:
        assert self._server is not None
        return self._server

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
