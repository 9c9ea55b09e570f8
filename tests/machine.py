"""What the tests need from the machine that pip cannot install: Chromium for the Mini App's
tests and PostgreSQL's server binaries for the storage tests, found where the system put
them."""

from __future__ import annotations

import os
import shutil

from tests.postgres import find_binaries

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """PLAYWRIGHT_CHROMIUM if set, else the first Chromium on the PATH."""
    chosen = os.environ.get("PLAYWRIGHT_CHROMIUM")
    if chosen:
        return chosen
    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


def missing() -> list[str]:
    """The Debian packages the tests need and the machine lacks."""
    need = []
    if find_chromium() is None:
        need.append("chromium")
    if find_binaries() is None:
        need.append("postgresql")
    return need
