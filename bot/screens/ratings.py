"""Ratings in words and as a picture: a game's changes, /top's boards, /stats' lines, and the
history of a player's rating. The number shown is always the conservative estimate."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.games import PLUGINS
from bot.screens.look import title, who
from bot.service.queries import Stats
from bot.service.ratings import PRIOR, conservative
from bot.service.tables import Table
from bot.ui.i18n import Translate
from bot.ui.pictures.canvas import Picture
from bot.ui.pictures.chart import Series, line_chart
from bot.ui.pictures.style import MOUNTAIN, POOL, WHISTS
from storage.rows import RatingChange, Standing

COLOURS = (WHISTS, POOL, MOUNTAIN)  # one per game kind, in the plugins' order


def rating(value: float) -> str:
    """A rating with one decimal (``0.0``, never ``-0.0``)."""
    return f"{round(value, 1) + 0.0:.1f}"


def change(value: float) -> str:
    """``+0.7``, ``-1.2``, ``±0.0``."""
    text = rating(value)
    return "±" + text if text == "0.0" else text if text.startswith("-") else "+" + text


def changes_text(table: Table, changes: Sequence[RatingChange], tr: Translate) -> str:
    """The final message's lines: each player's rating in the group before and after."""
    lines = [tr("📈 <b>Ratings in this group</b>:")]
    for c in changes:
        before, after = round(conservative(c.before), 1), round(conservative(c.after), 1)
        lines.append(f"{who(table, c.seat)} {rating(before)} → {rating(after)}"
                     f" ({change(after - before)})")  # the shown numbers add up
    return "\n".join(lines)


def top_text(boards: dict[str, list[Standing]], minimum: int, tr: Translate) -> str:
    sections = []
    for game, rows in boards.items():
        lines = [f"<b>{escape(title(game, tr))}</b>"]
        lines += [tr("{place}. {name}: <b>{rating}</b> · games: {games}", place=place,
                     name=escape(row.name), rating=rating(conservative(row.skill)),
                     games=row.games) for place, row in enumerate(rows, 1)]
        sections.append("\n".join(lines))
    if not sections:
        return tr("Nobody here has played enough rated games yet (the minimum is {n}). "
                  "/top 1 counts everyone.", n=minimum)
    header = tr("🏆 <b>Best players here</b> by rating · minimum of rated games: {n}",
                n=minimum)
    return "\n\n".join([header, *sections])


def rating_lines(found: Stats, game: str, tr: Translate) -> list[str]:
    """A game kind's ratings in /stats: in the group, and across all groups."""
    lines = []
    here, everywhere = found.ratings.get((game, "group")), found.ratings.get((game, "all"))
    if here is not None:
        lines.append(tr("Rating here: {rating} · rated games: {games}",
                        rating=rating(conservative(here.skill)), games=here.games))
    if everywhere is not None:
        lines.append(tr("Rating in all groups: {rating} · rated games: {games}",
                        rating=rating(conservative(everywhere.skill)), games=everywhere.games))
    return lines


def history_picture(found: Stats, tr: Translate) -> Picture:
    """The player's rating after each rated game, a line per game kind he played."""
    series = []
    for n, game in enumerate(PLUGINS):
        values = [conservative(PRIOR), *(conservative(p.skill) for p in found.history
                                         if p.game == game)]
        if len(values) > 1:
            series.append(Series(f"{title(game, tr)}: {rating(values[-1])}",
                                 COLOURS[n % len(COLOURS)], values))
    where = tr("in this group") if found.scope == "group" else tr("in all groups")
    return line_chart(tr("Rating of {name}", name=found.user.display_name), where, series,
                      [tr("The conservative estimate (μ − 3σ) after each rated game.")])


def history_caption(found: Stats, tr: Translate) -> str:
    return tr("📈 The rating of {name} after each rated game", name=found.user.display_name)
