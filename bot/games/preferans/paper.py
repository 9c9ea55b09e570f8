"""``/settle``: a paper Preferans sheet, typed or pasted, settled as the engine settles.

The text is read leniently, one player per line (or per ``;``)::

    /settle leningrad pool 30
    E: pool 14, mountain 38, whists S 148, W 10
    S 26 41 28 0
    W: пуля 10 гора 28 висты E 46 S 94

- The first line may name the variant (``sochi``, ``leningrad``/``peter``,
  ``rostov``, Russian too; Sochi if none), the pool target (``pool 30`` or a
  bare number; any target gives the same balances, so it may be left out)
  and the rounding (``exact``, ``integer``, ``divisible``).
- A player's line: the name, then ``pool N``, ``mountain N`` and the whists
  he wrote, ``whists Bob 30 Cid 12`` (``on`` works too), in any order. Bare
  numbers are the pool, the mountain, then the whists on the others in the
  order of the lines. A dash is 0, a missing mountain or whist is 0; with no
  pools at all every pool is closed.

The numbers become a sheet document (records.md) for
``engine.preferans.scoring.settle_document``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from typing import Any

from bot.games.preferans.options import OPTIONS
from bot.ui.i18n import Translate
from engine.base import RecordError
from engine.preferans.rules import Rules
from engine.preferans.scoring import settle_document

VARIANTS = {"sochi": "sochi", "сочи": "sochi", "сочинка": "sochi",
            "leningrad": "leningrad", "peter": "leningrad", "piter": "leningrad",
            "ленинград": "leningrad", "ленинградка": "leningrad", "питер": "leningrad",
            "rostov": "rostov", "ростов": "rostov"}
ROUNDINGS = {"exact": "exact", "точно": "exact", "integer": "integer", "whole": "integer",
             "round": "integer", "целые": "integer", "divisible": "divisible_by_n"}
POOL = {"pool", "пуля", "пулька"}
MOUNTAIN = {"mountain", "mount", "гора"}
WHISTS = {"whists", "whist", "висты", "вист", "on", "на"}
TARGET = {"target", "до"}
DASHES = {"-", "—", "–"}
_TOKENS = re.compile(r"[^\s:,=]+")
_NUMBER = re.compile(r"-?\d+")


class PaperError(ValueError):
    """What cannot be read, in the reader's language."""


@dataclass
class _Player:
    name: str
    pool: int | None = None
    mountain: int | None = None
    named: list[tuple[str, int]] = field(default_factory=list)  # whists on a name
    ordered: list[int] = field(default_factory=list)  # whists on the others, in order


@dataclass
class Sheet:
    """A read sheet: the rules it is settled by, and the players' numbers."""

    rules: dict[str, Any]
    players: list[str]
    pool: list[int]
    mountain: list[int]
    whists: list[list[int]]

    def document(self) -> dict[str, Any]:
        return {"game": "preferans", "rules": self.rules, "players": self.players,
                "sheet": {"pool": self.pool, "mountain": self.mountain, "whists": self.whists}}


def read(text: str, tr: Translate) -> Sheet:
    """The sheet a text describes; PaperError says what is wrong."""
    rules: dict[str, Any] = {}
    players: list[_Player] = []
    for line in re.split(r"[\n;]+", text.replace("−", "-")):
        words = _TOKENS.findall(line)
        if not words:
            continue
        if _setting(words[0]):
            if players:
                raise PaperError(tr("The variant and the pool target go on the first line, "
                                    "before the players."))
            _read_settings(words, rules, tr)
        else:
            players.append(_read_player(words, tr))
    return _sheet(rules, players, tr)


def _setting(word: str) -> bool:
    low = word.casefold()
    return (low in VARIANTS or low in ROUNDINGS or low in POOL or low in TARGET
            or bool(_NUMBER.fullmatch(word)))


def _read_settings(words: list[str], rules: dict[str, Any], tr: Translate) -> None:
    for word in words:
        low = word.casefold()
        if low in VARIANTS:
            rules["variant"] = VARIANTS[low]
        elif low in ROUNDINGS:
            rules["settlement_rounding"] = ROUNDINGS[low]
        elif _NUMBER.fullmatch(word) and int(word) > 0:
            rules["pool"] = int(word)
        elif low not in POOL and low not in TARGET:
            raise PaperError(tr("I do not understand “{word}” on the first line: it takes the "
                                "variant (sochi, leningrad, rostov), the pool target and the "
                                "rounding (exact, integer).", word=escape(word)))


def _read_player(words: list[str], tr: Translate) -> _Player:
    i = 0
    while i < len(words) and not _number(words[i]) and words[i].casefold() not in (
            POOL | MOUNTAIN | WHISTS):
        i += 1
    player = _Player(" ".join(words[:i]))
    if not player.name:
        raise PaperError(tr("Each line starts with a player's name: “{line}”",
                            line=escape(" ".join(words))))
    field_name: str | None = None  # the keyword the next number answers
    target: list[str] = []  # the name the next number is written on
    for word in words[i:]:
        low = word.casefold()
        value = _number(word)
        if low in POOL or low in MOUNTAIN:
            field_name = "pool" if low in POOL else "mountain"
        elif low in WHISTS:
            field_name = "whists"
        elif value is None:
            target.append(word)
        elif target:
            player.named.append((" ".join(target), value))
            target = []
        elif field_name in ("pool", "mountain") or (field_name is None and (
                player.pool is None or player.mountain is None)):
            slot = field_name or ("pool" if player.pool is None else "mountain")
            if getattr(player, slot) is not None:
                raise PaperError(tr("{name}: two numbers for the same thing.",
                                    name=escape(player.name)))
            setattr(player, slot, value)
            field_name = None
        else:
            player.ordered.append(value)
    if target:
        raise PaperError(tr("{name}: how many whists on {target}?", name=escape(player.name),
                            target=escape(" ".join(target))))
    return player


def _number(word: str) -> int | None:
    if word in DASHES:
        return 0
    return int(word) if _NUMBER.fullmatch(word) else None


def _sheet(rules: dict[str, Any], players: list[_Player], tr: Translate) -> Sheet:
    names = [p.name for p in players]
    if len(players) not in (3, 4):
        raise PaperError(tr("A sheet has 3 or 4 players, one per line; I read {n}: {names}",
                            n=len(players), names=escape(", ".join(names)) or "—"))
    if len({n.casefold() for n in names}) < len(names):
        raise PaperError(tr("Two players have the same name."))
    n = len(players)
    whists = [[0] * n for _ in range(n)]
    for x, player in enumerate(players):
        for name, value in player.named:
            whists[x][_find(name, names, x, tr)] = value
        free = [y for y in range(n) if y != x and not any(
            _find(name, names, x, tr) == y for name, _ in player.named)]
        if len(player.ordered) > len(free):
            raise PaperError(tr("{name} has more whists than other players.",
                                name=escape(player.name)))
        for y, value in zip(free, player.ordered, strict=False):
            whists[x][y] = value
    pools = [p.pool for p in players]
    given = [p for p in pools if p is not None]
    variant = rules.setdefault("variant", "sochi")
    default_target = Rules.from_dict({"variant": variant}).pool
    if given and len(given) < n:
        missing = next(p.name for p in players if p.pool is None)
        raise PaperError(tr("{name}'s pool is missing (give every pool, or none when all are "
                            "closed).", name=escape(missing)))
    rules.setdefault("pool", max([default_target, *given]))
    rules["players"] = n
    return Sheet(rules, names, [rules["pool"] if p is None else p for p in pools],
                 [p.mountain or 0 for p in players], whists)


def _find(name: str, names: list[str], writer: int, tr: Translate) -> int:
    low = name.casefold()
    exact = [y for y, n in enumerate(names) if n.casefold() == low]
    fits = exact or [y for y, n in enumerate(names) if n.casefold().startswith(low)]
    if len(fits) != 1:
        raise PaperError(tr("{name}: whists on “{target}”, who is that?",
                            name=escape(names[writer]), target=escape(name)))
    if fits[0] == writer:
        raise PaperError(tr("{name} cannot write whists on himself.",
                            name=escape(names[writer])))
    return fits[0]


def settle_text(text: str, tr: Translate) -> str:
    """The answer to ``/settle``: the sheet as read and its settlement, or what is wrong."""
    if not text.strip():
        return help_text(tr)
    try:
        sheet = read(text, tr)
        balances = settle_document(sheet.document())
    except PaperError as exc:
        return tr("I could not read the sheet: {reason}", reason=str(exc)) + "\n\n" + \
            tr("Send /settle alone for the format.")
    except RecordError as exc:
        return tr("This sheet cannot be settled: {reason}", reason=escape(str(exc)))
    rules = Rules.from_dict(sheet.rules)
    lines = [tr("<b>Settlement</b> · {variant} · pool {pool} · {rounding}",
                variant=tr(OPTIONS.name("variant", rules.variant)), pool=rules.pool,
                rounding=_rounding(rules.settlement_rounding, tr)),
             tr("The sheet as I read it:")]
    for x, name in enumerate(sheet.players):
        written = ", ".join(tr("on {name} {n}", name=escape(sheet.players[y]), n=w)
                            for y, w in enumerate(sheet.whists[x]) if w)
        lines.append(tr("{name}: pool {pool}, mountain {mountain}, whists {whists}",
                        name=escape(name), pool=sheet.pool[x], mountain=sheet.mountain[x],
                        whists=written or "—"))
    lines.append("")
    order = sorted(range(len(balances)), key=lambda s: -balances[s])
    lines += [f"{i + 1}. {escape(sheet.players[s])}: <b>{_signed(balances[s])}</b>"
              for i, s in enumerate(order)]
    return "\n".join(lines)


def _rounding(value: str, tr: Translate) -> str:
    return {"exact": tr("exact"), "integer": tr("whole whists"),
            "divisible_by_n": tr("divisible by players")}[value]


def _signed(value: float) -> str:
    return f"{value:+g}" if value else "0"


def help_text(tr: Translate) -> str:
    return tr(
        "<b>/settle</b> settles a paper Preferans sheet. Send it with the sheet, one player "
        "per line: the name, <code>pool</code>, <code>mountain</code> and the whists he "
        "wrote on each other player. The first line may give the variant (Sochi if not "
        "given), the pool target and <code>integer</code> for whole whists.\n"
        "<code>/settle leningrad pool 30\n"
        "E: pool 14, mountain 38, whists S 148, W 10\n"
        "S: pool 26, mountain 41, whists E 28\n"
        "W: pool 10, mountain 28, whists E 46, S 94</code>\n"
        "Bare numbers work too: pool, mountain, then the whists on the others in the order "
        "of the lines (<code>S 26 41 28 0</code>). With no pools at all, every pool is "
        "closed. Russian words work too (пуля, гора, висты).")
