"""``python -m bot.ratings rebuild``: compute every rating again from the stored results.

Ratings are stored as each game's changes; they follow from the games' results alone, so
after a change of model (or of which games count) a rebuild loses nothing. It runs in one
transaction against the database the bot uses (DATABASE_URL, else DATABASE_PATH; or
``--database`` with a file or a postgresql:// URL); it may run while the bot does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from bot.config import ConfigError, database_settings
from bot.service import ratings
from storage.store import Storage, is_postgres


async def rebuild(location: str) -> str:
    async with await Storage.open(location) as store:
        found = await ratings.rebuild(store)
    games = len({c.table_id for c in found})
    players = len({c.user_id for c in found})
    return f"{games} games rated, {players} players"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ratings", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("rebuild",))
    parser.add_argument("--database", help="a SQLite file or a postgresql:// URL (default: "
                        "DATABASE_URL, else DATABASE_PATH)")
    args = parser.parse_args(argv)
    try:
        path, url = database_settings(os.environ)
    except ConfigError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    location = args.database or url or path
    if not is_postgres(location) and not os.path.exists(location):
        print(f"cardtable: no database at {location}", file=sys.stderr)
        return 2
    print(asyncio.run(rebuild(location)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
