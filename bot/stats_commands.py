"""/stats [@user] and /top [game] [minimum games]: from the stored summaries, never a replay.

``/stats`` reads one player's deal and game summaries (``Storage.user_stats``),
``/top`` the chat's finished games per game kind (``Storage.leaderboard``):
players ranked by settled balance per game (whists in Preferans, bazzis in
Seep, points in Joker), among those with at least the minimum of games.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from telegram import Message, MessageEntity

from bot.games.registry import GAME_UIS
from bot.i18n import Translate
from bot.pictures.numbers import number, signed
from engine.games import GAMES
from storage.rows import ContractStats, UserRow, UserStats

if TYPE_CHECKING:
    from bot.hub import Hub

MIN_GAMES = 3  # finished games a player needs to be on the leaderboard, unless asked
MAX_MIN_GAMES = 1000
TOP = 10  # players shown per game kind


def title(game: str, tr: Translate) -> str:
    ui = GAME_UIS.get(game)
    return tr(ui.title) if ui is not None else game.capitalize()


def figure(value: float) -> str:
    """A figure rounded to two decimals, without a needless ``.0``."""
    rounded = round(value, 2)
    return number(int(rounded) if rounded == int(rounded) else rounded)


def balance(value: float) -> str:
    rounded = round(value, 2)
    return signed(int(rounded) if rounded == int(rounded) else rounded)


# -- /stats ----------------------------------------------------------------------------

async def target(hub: Hub, message: Message, args: list[str], sender: UserRow,
                 tr: Translate) -> UserRow | str:
    """Whose statistics: the user replied to, named (a text mention, or ``@username`` among
    the arguments), or the sender; an explanation if the one named is unknown."""
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        return await hub.user(replied.from_user)
    for entity in message.entities:
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            return await hub.user(entity.user)
    named = next((arg for arg in args if arg.startswith("@") and len(arg) > 1), None)
    if named is None:
        return sender
    found = await hub.storage.find_user(named)
    return found if found is not None else tr(
        "I do not know {name}: they have not played with me yet.", name=escape(named))


async def stats_text(hub: Hub, user: UserRow, tr: Translate) -> str:
    rows = await hub.storage.user_stats(user.id)
    name = escape(user.display_name)
    if not rows:
        return tr("{name} has not played with me yet.", name=name)
    parts = [tr("📊 <b>{name}</b>", name=name)]
    parts += ["\n".join(game_lines(row, tr)) for row in rows]
    return "\n\n".join(parts)


def game_lines(row: UserStats, tr: Translate) -> list[str]:
    """One game kind of a player's statistics."""
    lines = [f"<b>{escape(title(row.game, tr))}</b>"]
    lines.append(tr("Finished games: {games} · won: {first}", games=row.games,
                    first=row.first_places))
    if row.games:
        lines.append(_balance_line(row.game, tr, balance(row.balance),
                                   balance(row.balance / row.games)))
    lines.append(tr("Deals: {deals} · the robot played for them: {robot}", deals=row.deals,
                    robot=row.robot_deals) if row.robot_deals else
                 tr("Deals: {deals}", deals=row.deals))
    if row.contracts:
        lines.append(_contracts_title(row.game, tr) + " " + " · ".join(
            f"{level}: {_outcome(c)}" for level, c in sorted(row.contracts.items())))
    if row.game == "preferans":
        lines.append(tr("Misère (made/failed): {made}/{failed}", made=row.misers.made,
                        failed=row.misers.failed))
    lines.append(_won_lost(row.game, tr, figure(row.won), figure(row.lost)))
    return lines


def _outcome(c: ContractStats) -> str:
    """``5/1`` made/failed, or the count where the game does not judge (a Seep bid)."""
    return f"{c.made}/{c.failed}" if c.made + c.failed else str(c.declared)


def _contracts_title(game: str, tr: Translate) -> str:
    if game == "preferans":
        return tr("Contracts by level (made/failed):")
    if game == "joker":
        return tr("Bids by tricks (taken exactly/not):")
    return tr("Bids:")


def _balance_line(game: str, tr: Translate, total: str, per_game: str) -> str:
    if game == "preferans":
        return tr("Balance in whists: {total} ({per_game} a game)", total=total,
                  per_game=per_game)
    if game == "seep":
        return tr("Balance in bazzis: {total} ({per_game} a game)", total=total,
                  per_game=per_game)
    return tr("Balance in points: {total} ({per_game} a game)", total=total, per_game=per_game)


def _won_lost(game: str, tr: Translate, won: str, lost: str) -> str:
    if game == "preferans":
        return tr("Whists written: {won} · written on them: {lost}", won=won, lost=lost)
    if game == "seep":
        return tr("Deal points of their team: {won} · of the other team: {lost}", won=won,
                  lost=lost)
    return tr("Points won: {won} · lost: {lost}", won=won, lost=lost)


# -- /top ------------------------------------------------------------------------------

def parse_top(args: list[str]) -> tuple[list[str], int] | None:
    """``[game] [minimum]`` in any order -> (games, minimum); None if not understood."""
    games: list[str] = []
    minimum = MIN_GAMES
    for arg in args:
        word = arg.lower()
        game = next((ui.name for ui in GAME_UIS.values() if word in (ui.name, *ui.commands)),
                    word if word in GAMES else None)
        if game is not None:
            games = [game]
        elif word.isdigit() and 1 <= int(word) <= MAX_MIN_GAMES:
            minimum = int(word)
        else:
            return None
    return games or list(GAMES), minimum


async def top_text(hub: Hub, chat_id: int, args: list[str], tr: Translate) -> str:
    parsed = parse_top(args)
    if parsed is None:
        return tr("Send /top, or /top with a game and the minimum of finished games, "
                  "for example /top preferans 5.")
    games, minimum = parsed
    sections = []
    for game in games:
        rows = await hub.storage.leaderboard(chat_id, game, min_games=minimum, limit=TOP)
        if not rows:
            continue
        lines = [f"<b>{escape(title(game, tr))}</b> · " + _unit(game, tr)]
        lines += [tr("{place}. {name}: <b>{per_game}</b> · games: {games} · total: {total}",
                     place=place, name=escape(row.name), per_game=balance(row.per_game),
                     games=row.games, total=balance(row.balance))
                  for place, row in enumerate(rows, 1)]
        sections.append("\n".join(lines))
    if not sections:
        return tr("Nobody here has finished enough games yet (the minimum is {n}). "
                  "/top 1 counts everyone.", n=minimum)
    header = tr("🏆 <b>Best players here</b> · minimum of finished games: {n}", n=minimum)
    return "\n\n".join([header, *sections])


def _unit(game: str, tr: Translate) -> str:
    if game == "preferans":
        return tr("whists a game")
    if game == "seep":
        return tr("bazzis a game")
    return tr("points a game")
