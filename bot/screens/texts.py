"""What the commands answer: help, score, history, rules, statistics, menus."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from bot.games import PLUGINS
from bot.screens.look import context, plugin_of, title
from bot.screens.ratings import rating_lines
from bot.service.queries import Score, Stats
from bot.service.tables import Table
from bot.ui.callbacks import pack
from bot.ui.i18n import Translate
from bot.ui.pictures.numbers import number, signed
from bot.ui.screen import Button, Screen, rows_of
from storage.rows import ContractStats, DealRow, UserStats

GAME_PREFIX = "g:"  # a /newgame game button: "g:seep:USER" (the chat is the button's; USER
# sent /newgame and owns the table)
LANGUAGE_PREFIX = "lang:"  # callback data of the language buttons: "lang:ru"
NATIVE_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська", "ka": "ქართული",
                "hi": "हिन्दी"}


def game_titles(tr: Translate) -> str:
    """The games the bot hosts: "Preferans, Seep, Joker"."""
    return ", ".join(tr(p.title) for p in PLUGINS.values())


def game_commands(tr: Translate) -> str:
    """Each game's own command: "/pref Preferans, /seep Seep, /joker Joker"."""
    return ", ".join(f"/{p.commands[0]} {tr(p.title)}" for p in PLUGINS.values() if p.commands)


def help_text(tr: Translate, lines: Sequence[str], *, private: bool) -> str:
    """``/help``: what the bot is, and a line per command (``lines``, translated)."""
    head = [tr("<b>Card table</b>: {games}, with the scoresheet kept for you.",
               games=game_titles(tr)), ""]
    if private:
        head += [tr("Add me to a group and send /newgame there. Your cards and your "
                    "buttons come here, in this private chat."), ""]
    tail = ["", tr("Keep score only (a lobby button): I keep the sheet of a game played with "
                   "real cards.")]
    return "\n".join([*head, *lines, *tail])


def score_text(found: Score, tr: Translate, links: Mapping[int, str | None]) -> str:
    """``/score``: the game of the topic, or the last one's results; with no game here, the
    games of the chat's other topics (``links``: a link to each one's table message)."""
    if found.table is not None and found.table.match is not None:
        return plugin_of(found.table).score(found.table.match, context(found.table, tr))
    if found.elsewhere:
        lines = [tr("No game is being played in this topic. Being played in this group:")]
        for table in found.elsewhere:
            where = escape(table.topic) if table.topic else tr("another topic")
            link = links.get(table.id)
            lines.append(f"• {tr(plugin_of(table).title)}: " + (
                f'<a href="{link}">{where}</a>' if link else where))
        return "\n".join(lines)
    if found.last is not None:
        lines = [tr("No game is being played. The last one ended with:")]
        lines += [f"{r.place}. {escape(r.name)}: <b>{r.balance:+g}</b>" for r in found.last.results]
        return "\n".join(lines)
    return tr("No game is being played here. Send /newgame to open a table.")


def history_text(deals: list[DealRow], tr: Translate) -> str:
    if not deals:
        return tr("No deals have been played here yet.")
    lines = []
    for deal in deals:
        lines.append(PLUGINS[deal.game].history_line(deal.result, deal.deal_no + 1,
                                                     deal.players, tr))
        if deal.robot_seats:
            lines.append(tr("  🤖 a robot played for {names}", names=", ".join(
                escape(deal.players[s]) for s in deal.robot_seats)))
    # The deals fold in an expandable quote: the chat sees the latest few lines.
    return (tr("<b>Last deals</b>, newest first:") + "\n<blockquote expandable>"
            + "\n".join(lines) + "</blockquote>")


def rules_text(table: Table | None, tr: Translate, *, every: bool = False) -> str:
    """The table's rules: the conventions that are not the usual ones, or ``every`` one."""
    if table is None:
        return tr("No table is open here. Send /newgame to open one.")
    summary = plugin_of(table).rules_summary(table.rules, context(table, tr), every=every)
    if every:
        return summary
    return summary + "\n" + tr("Every other convention as usual: /rules all lists them all.")


def export_caption(tr: Translate) -> str:
    return tr("The game record: every deal and every move, to keep or to replay.")


def newgame_menu(tr: Translate, owner: int) -> Screen:
    """The question, with one button per game the bot hosts, for ``owner`` to press."""
    buttons = [Button(tr(p.title), f"{GAME_PREFIX}{p.name}:{owner}") for p in PLUGINS.values()]
    return Screen(tr("Which game shall we play?"), tuple(rows_of(buttons, 3)))


def game_chosen(tr: Translate, game: str) -> Screen:
    """The /newgame menu once a game was chosen: no buttons left."""
    return Screen(tr("Which game shall we play? {game}.", game=tr(PLUGINS[game].title)))


def language_name(language: str) -> str:
    return NATIVE_NAMES.get(language, language)


def language_picker(current: str, languages: Sequence[str], tr: Translate,
                    *, group: bool) -> Screen:
    """The question with one button per language, the current one ticked."""
    question = (tr("Which language shall I write in here?") if group
                else tr("Which language shall I write to you in?"))
    buttons = [Button(("✅ " if code == current else "") + language_name(code),
                      LANGUAGE_PREFIX + code) for code in languages]
    return Screen(question, tuple(rows_of(buttons, 3)))


def languages_known(languages: Sequence[str], tr: Translate) -> str:
    return tr("I can write in: {languages}. For example: /language ru",
              languages=", ".join(f"{code} ({language_name(code)})" for code in languages))


def language_set(tr: Translate, *, group: bool) -> str:
    """The confirmation, in the new language."""
    return (tr("From now on I write in English in this chat.") if group
            else tr("From now on I write to you in English."))


def vote_buttons(table_id: int, vote_id: int, tr: Translate) -> tuple[tuple[Button, ...], ...]:
    return ((Button(tr("✅ Agree"), pack("v", table_id, vote_id, "y")),
             Button(tr("❌ Refuse"), pack("v", table_id, vote_id, "n"))),)


# -- /stats and /top ---------------------------------------------------------------------

def figure(value: float) -> str:
    """A figure rounded to two decimals, without a needless ``.0``."""
    rounded = round(value, 2)
    return number(int(rounded) if rounded == int(rounded) else rounded)


def balance(value: float) -> str:
    rounded = round(value, 2)
    return signed(int(rounded) if rounded == int(rounded) else rounded)


def stats_text(found: Stats, tr: Translate) -> str:
    name = escape(found.user.display_name)
    if not found.rows:
        return tr("{name} has not played with me yet.", name=name)
    parts = [tr("📊 <b>{name}</b>", name=name)]
    parts += ["\n".join(game_lines(found, row, tr)) for row in found.rows]
    return "\n\n".join(parts)


def game_lines(found: Stats, row: UserStats, tr: Translate) -> list[str]:
    """One game kind of a player's statistics."""
    words = PLUGINS[row.game].stats(tr) if row.game in PLUGINS else None
    lines = [f"<b>{escape(title(row.game, tr))}</b>", *rating_lines(found, row.game, tr)]
    lines.append(tr("Finished games: {games} · won: {first}", games=row.games,
                    first=row.first_places))
    if row.games and words is not None:
        lines.append(words.balance.format(total=balance(row.balance),
                                          per_game=balance(row.balance / row.games)))
    lines.append(tr("Deals: {deals} · the robot played for them: {robot}", deals=row.deals,
                    robot=row.robot_deals) if row.robot_deals else
                 tr("Deals: {deals}", deals=row.deals))
    if words is None:
        return lines
    if row.contracts:
        lines.append(words.contracts + " " + " · ".join(
            f"{level}: {_outcome(c)}" for level, c in sorted(row.contracts.items())))
    lines.extend(words.extra(row, tr))
    lines.append(words.won_lost.format(won=figure(row.won), lost=figure(row.lost)))
    return lines


def _outcome(c: ContractStats) -> str:
    """``5/1`` made/failed, or the count where the game does not judge (a Seep bid)."""
    return f"{c.made}/{c.failed}" if c.made + c.failed else str(c.declared)
