"""What the score commands read: a topic's table, the chat's last game, history, records,
statistics. Reads only: nothing here changes a table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.bounds import number
from bot.service import loading, play, ratings, records
from bot.service.outcome import Outcome
from bot.service.tables import Table
from bot.service.users import Person
from engine.games import GAMES
from engine.match import Match
from storage.errors import StorageError
from storage.rows import DealRow, GameRow, RatingPoint, Scope, Standing, UserRow, UserStats

if TYPE_CHECKING:
    from bot.service.ports import Services

RECENT = 10  # ended tables looked through for the last game that started (not a lobby)
MIN_GAMES = 3  # rated games a player needs to be on the leaderboard, unless asked
MAX_MIN_GAMES = 1000
TOP = 10  # players shown per game kind


@dataclass(frozen=True)
class Place:
    """Where a command's game is: a group and its forum topic (0: none, or General); each
    topic is a chat of its own."""

    chat_id: int
    thread_id: int = 0


async def game_place(svc: Services, chat_id: int, thread_id: int,
                     user_id: int | None) -> Place | None:
    """The group (and topic) whose game a command is about: this one, or in private the
    player's."""
    if chat_id < 0:
        return Place(chat_id, thread_id)
    tables = await loading.user_tables(svc, user_id) if user_id is not None else []
    return Place(tables[0].chat_id, tables[0].thread_id) if tables else None


async def topic_table(svc: Services, chat_id: int, thread_id: int,
                      user_id: int | None) -> Table | None:
    """The table a command is about: the topic's, or in private the player's first game."""
    if chat_id < 0:
        return await loading.topic_table(svc, chat_id, thread_id)
    tables = await loading.user_tables(svc, user_id) if user_id is not None else []
    return tables[0] if tables else None


@dataclass(frozen=True)
class Score:
    """``/score``: the table being played, or the last game's results, or neither."""

    table: Table | None = None
    last: GameRow | None = None
    elsewhere: tuple[Table, ...] = ()  # none here: the games of the chat's other topics


async def score(svc: Services, place: Place, table: Table | None) -> Score:
    if table is not None and table.match is not None:
        return Score(table=table)
    games = await svc.store.stats.recent_games(place.chat_id, 1, place.thread_id)
    elsewhere = tuple(t for t in await loading.chat_tables(svc, place.chat_id)
                      if t.thread_id != place.thread_id and t.match is not None)
    return Score(last=games[0] if games and games[0].results else None, elsewhere=elsewhere)


async def history(svc: Services, place: Place) -> list[DealRow]:
    return await svc.store.stats.recent_deals(place.chat_id, 10, place.thread_id)


async def last_played(svc: Services, place: Place, table: Table | None) -> int | None:
    """The table of the game being played, or of the topic's last game that started."""
    if table is not None and table.status != "lobby":
        return table.id
    games = await svc.store.stats.recent_games(place.chat_id, RECENT, place.thread_id)
    return next((g.table_id for g in games if g.started_at is not None), None)


async def sheet_match(svc: Services, place: Place, table: Table | None) -> Match | Outcome:
    """The match whose sheet ``/sheet`` draws (a copy: it is drawn in a worker thread)."""
    if table is not None and table.match is not None:
        async with table.lock:
            return play.snapshot(table.match)
    table_id = await last_played(svc, place, None)
    if table_id is None:
        return Outcome().refuse("nothing_played")
    try:
        return await records.load_match(svc.store, table_id)
    except StorageError:
        return Outcome().refuse("record_unreadable")


async def set_sheet(svc: Services, table: Table | None, user_id: int, on: bool) -> Outcome:
    """``/sheet on|off``: whether each deal's result comes with the sheet's picture."""
    out = Outcome()
    if table is None:
        return out.refuse("no_table_here")
    if table.seat_of(user_id) is None and user_id != table.row.creator_id:
        return out.refuse("players_only")
    async with table.lock:
        settings = {**table.row.settings, play.SHEET_SETTING: on}
        table.row = await svc.store.tables.update_settings(table.id, settings)
    return out.done("sheet_on" if on else "sheet_off")


@dataclass(frozen=True)
class Stats:
    """``ratings``: by (game, scope), the user's current ratings (in the group the command
    came from, and across all groups); ``history``: his ratings after each game in
    ``scope`` (the group's; across all groups when asked in private)."""

    user: UserRow
    rows: list[UserStats] = field(default_factory=list)
    ratings: dict[tuple[str, Scope], Standing] = field(default_factory=dict)
    history: list[RatingPoint] = field(default_factory=list)
    scope: Scope = "all"


async def stats(svc: Services, sender: Person, named: Person | str | None,
                chat_id: int) -> Stats | Outcome:
    """``/stats`` in ``chat_id``: the sender's, or a user's named by reply, mention or
    ``@username``."""
    if isinstance(named, Person):
        user = await svc.users.seen(named)
    elif isinstance(named, str):
        found = await svc.store.chats.find_user(named)
        if found is None:
            return Outcome().refuse("never_played", name=named)
        user = found
    else:
        user = await svc.users.seen(sender)
    group = chat_id if chat_id < 0 else None
    scopes: dict[Scope, int | None] = {"group": group, "all": None} if group else {"all": None}
    standings: dict[tuple[str, Scope], Standing] = {}
    for game in GAMES:
        for scope, where in scopes.items():
            found = await svc.store.ratings.standings(game, where, [user.id])
            if user.id in found:
                standings[game, scope] = found[user.id]
    return Stats(user, await svc.store.stats.user_stats(user.id), standings,
                 await svc.store.ratings.history(user.id, group), "group" if group else "all")


def parse_top(args: list[str], aliases: dict[str, str]) -> tuple[list[str], int] | None:
    """``[game] [minimum]`` in any order -> (games, minimum); None if not understood.
    ``aliases``: a word -> the game it names (``pref`` -> preferans)."""
    games: list[str] = []
    minimum = MIN_GAMES
    for arg in args:
        word = arg.lower()
        game = aliases.get(word, word if word in GAMES else None)
        if game is not None:
            games = [game]
        elif count := number(word, limit=MAX_MIN_GAMES):
            minimum = count
        else:
            return None
    return games or list(GAMES), minimum


async def top(svc: Services, chat_id: int, games: list[str],
              minimum: int) -> dict[str, list[Standing]]:
    """The chat's best players per game kind by the conservative estimate of their rating
    (kinds with nobody are left out)."""
    boards = {}
    for game in games:
        rows = await svc.store.ratings.leaderboard(chat_id, game, min_games=minimum,
                                                   caution=ratings.CAUTION, limit=TOP)
        if rows:
            boards[game] = rows
    return boards
