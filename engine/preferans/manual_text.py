"""The one-line text form of a Preferans deal played at a real table.

One deal per line. Parts are separated by ``;`` (or ``,`` or a new line),
words by spaces; case does not matter; English or Russian words.

Players: the name as on the sheet, the start of a name that fits only one
player (``an`` for Ann), or ``#1`` … ``#4`` (the order on the sheet).

What was played, once:

- a trick contract: ``6S`` … ``10NT``; suits ``S C D H`` or ``♠ ♣ ♦ ♥``,
  no trump ``NT``; Russian ``п т б ч``, ``бк``;
- ``miser`` (``мизер``); ``raspasy`` (``распасы``);
- ``walkaway 7S`` (``уход 7S``): the declarer won the auction at 7♠ and gave
  up (only where the walk-away option is on).

The player named with the contract (right after it, or before it in the same
part) is the declarer. His result: ``made`` (``сыграл``, ``чисто``), ``down 2``
(``без 2``, ``без двух``, ``-2``), or his tricks as a number. On misère the
number is the tricks he took; ``made`` is none.

Each defender: his name, his call ``whist`` / ``pass`` / ``halfwhist``
(``вист`` / ``пас`` / ``полвиста``), then his tricks if you count them.

- ``Bob pass; Cid halfwhist``: the half-whist stands (no play).
- ``Bob whist; Cid halfwhist``: Bob returned the whist (pass, half-whist, whist).
- One whister: his number without the passer's is the defending side's tricks.
- ``open`` / ``closed`` (``открыто`` / ``закрыто``): the lone whister's choice,
  optional.

``talon AH KH`` or ``talon 2`` (``прикуп тч кч``, ``прикуп 2``): the talon's quick tricks, where
the talon premium is played; not given means none.

Raspasy: each player's tricks, ``raspasy Ann 2 Bob 3 Cid 5``; one count may
be left out (it is the rest of the 10); with 4 players the dealer's talon
tricks count too.

Only the numbers scoring needs are required; more are checked. Examples::

    7H Ann made; Bob whist 3; Cid pass
    7H Ann down 1; Bob whist; Cid pass; open
    6S Ann 6; Bob whist 2; Cid whist 2; talon AS AD
    6H Ann; Bob pass; Cid halfwhist
    10NT Ann 9
    miser Ann 0
    raspasy Ann 2 Bob 1 Cid 5 Dan 2
    walkaway 7S Ann
    7ч Аня без 1; Боря вист; Вика пас
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.base import MalformedAction
from engine.cards import SUIT_WORDS, CardError, parse_written_card
from engine.preferans.deal_entries import talon_units

GAME, MISERE, RASPASY, WALKAWAY = "game", "miser", "raspasy", "walkaway"

SEPARATORS = ";,\n"
SUITS = {**SUIT_WORDS, "nt": "NT", "n": "NT", "бк": "NT", "б/к": "NT"}
KIND_WORDS = {"miser": MISERE, "misere": MISERE, "misère": MISERE, "мизер": MISERE,
              "raspasy": RASPASY, "allpass": RASPASY, "распасы": RASPASY, "распас": RASPASY,
              "walkaway": WALKAWAY, "walk-away": WALKAWAY, "walk": WALKAWAY, "уход": WALKAWAY}
CALL_WORDS = {"whist": "whist", "вист": "whist", "pass": "pass", "пас": "pass",
              "halfwhist": "halfwhist", "half-whist": "halfwhist", "half": "halfwhist",
              "полвиста": "halfwhist", "пол-виста": "halfwhist", "полвист": "halfwhist"}
MADE_WORDS = {"made", "сыграл", "сыграно", "сыграна", "чисто"}
DOWN_WORDS = {"down", "без", "minus"}
NUMBER_WORDS = {"одной": 1, "одну": 1, "одного": 1, "двух": 2, "трёх": 3, "трех": 3,
                "четырёх": 4, "четырех": 4, "пяти": 5}
OPEN_WORDS = {"open": True, "light": True, "открыто": True, "closed": False, "dark": False,
              "закрыто": False}
TALON_WORDS = {"talon", "прикуп"}
_CONTRACT = re.compile(r"(10|[6-9])(.+)")


@dataclass
class Draft:
    """A deal as the text form or a record describes it, before the steps check it.

    ``calls`` lists each defender's calls in his order; ``tricks`` may hold any
    seats' counts (more than scoring needs, or the lone whister's standing for
    his side); ``made`` and ``down`` speak of the declarer.
    """

    kind: str | None = None
    declarer: int | None = None
    contract: str | None = None
    calls: dict[int, list[str]] = field(default_factory=dict)
    talon: int | None = None
    open: bool | None = None
    tricks: dict[int, int] = field(default_factory=dict)
    made: bool = False
    down: int | None = None


@dataclass(frozen=True)
class Token:
    """A separator, a player (``seat``) or a word, at ``pos`` (0-based) in the text."""

    kind: str  # "sep", "name", "word"
    text: str
    pos: int
    seat: int | None = None


def parse_draft(text: str, players: Sequence[str]) -> Draft:
    """Read the text form; MalformedAction says what is wrong and where."""
    return _Reader(players).read(text.replace("\ufe0f", ""))


def _error(token: Token, what: str) -> MalformedAction:
    return MalformedAction("bad_text", f"{what} (at '{token.text}', character {token.pos + 1})",
                           position=token.pos, word=token.text)


class _Reader:
    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        self.draft = Draft()
        self.seat: int | None = None  # the player whose part we are reading
        self.declarer_next = False  # a contract stood alone: the next player named declared,
        self.candidate: Token | None = None  # unless he called whist or pass

    def read(self, text: str) -> Draft:
        tokens = self._tokens(text)
        if not any(t.kind != "sep" for t in tokens):
            raise MalformedAction("bad_text", "the deal is empty: for example "
                                  "'7H Ann made; Bob whist 3; Cid pass'")
        i = 0
        while i < len(tokens):
            i = self._token(tokens, i)
        candidate = self.candidate
        if candidate is not None and candidate.seat not in self.draft.calls:
            self._declare(candidate, candidate.seat if candidate.seat is not None else -1)
        self._after_halfwhist()
        return self.draft

    def _after_halfwhist(self) -> None:
        """The first defender speaks twice around a half-whist; the text names his last call.

        "Bob pass; Cid halfwhist" is pass, half-whist, pass (it stands); "Bob whist;
        Cid halfwhist" is pass, half-whist, whist (the returned whist).
        """
        calls = self.draft.calls
        if not any(said[:1] == ["halfwhist"] for said in calls.values()):
            return
        for seat, said in calls.items():
            if len(said) == 1 and said[0] in ("whist", "pass"):
                calls[seat] = ["pass", said[0]]

    # -- tokens -------------------------------------------------------------------

    def _tokens(self, text: str) -> list[Token]:
        names = sorted(enumerate(self.players), key=lambda p: -len(p[1]))
        out: list[Token] = []
        i = 0
        while i < len(text):
            if text[i].isspace() and text[i] not in SEPARATORS:
                i += 1
                continue
            if text[i] in SEPARATORS:
                out.append(Token("sep", text[i], i))
                i += 1
                continue
            for seat, name in names:
                end = i + len(name)
                if name and text[i:end].lower() == name.lower() and (
                        end == len(text) or not text[end].isalnum()):
                    out.append(Token("name", text[i:end], i, seat))
                    i = end
                    break
            else:
                j = i
                while j < len(text) and not text[j].isspace() and text[j] not in SEPARATORS:
                    j += 1
                out.append(Token("word", text[i:j], i))
                i = j
        return out

    # -- one token ----------------------------------------------------------------

    def _token(self, tokens: list[Token], i: int) -> int:
        """Read the token at ``i`` (and its arguments); the index of the next one."""
        token = tokens[i]
        if token.kind == "sep":
            self.seat = None
            return i + 1
        if token.kind == "name" and token.seat is not None:
            self._player(token, token.seat)
            return i + 1
        word = token.text.lower()
        if word in TALON_WORDS:
            return self._talon(tokens, i)
        if word in DOWN_WORDS:
            if i + 1 >= len(tokens) or tokens[i + 1].kind != "word":
                raise _error(token, "down how many? for example 'down 1'")
            self._down(token, _number(tokens[i + 1]))
            return i + 2
        contract = _contract(word)
        if contract is not None:
            self._contract(token, contract)
        elif word in KIND_WORDS:
            self._kind(token, KIND_WORDS[word])
        elif word in CALL_WORDS:
            if self.seat is None:
                raise _error(token, "whose call is it? put the name first")
            self.draft.calls.setdefault(self.seat, []).append(CALL_WORDS[word])
        elif word in MADE_WORDS:
            self._declarer_says(token)
            self.draft.made = True
        elif word in OPEN_WORDS:
            if self.draft.open is not None:
                raise _error(token, "open or closed is said once")
            self.draft.open = OPEN_WORDS[word]
        elif re.fullmatch(r"-\d+", word):
            self._down(token, int(word[1:]))
        elif word.isdigit():
            self._tricks(token, int(word))
        elif word.startswith("#"):
            self._player(token, self._seat_number(token))
        else:
            self._player(token, self._prefix(token))
        return i + 1

    def _player(self, token: Token, seat: int) -> None:
        self.seat = seat
        if self.declarer_next:
            self.declarer_next = False
            self.candidate = replace(token, seat=seat)

    def _contract(self, token: Token, contract: str) -> None:
        d = self.draft
        if d.contract is not None:
            raise _error(token, f"two contracts: {d.contract} and {contract}")
        if d.kind in (MISERE, RASPASY):
            raise _error(token, f"a contract does not go with {d.kind}")
        d.contract = contract
        d.kind = d.kind or GAME
        self._declared_here(token)

    def _kind(self, token: Token, kind: str) -> None:
        d = self.draft
        if kind == WALKAWAY and d.kind in (None, GAME):
            d.kind = WALKAWAY
        elif d.kind is not None:
            raise _error(token, f"{kind} does not go with {d.contract or d.kind}")
        else:
            d.kind = kind
        if kind != RASPASY:
            self._declared_here(token)

    def _declared_here(self, token: Token) -> None:
        """The player of this part declared; with none yet, the next one named."""
        if self.seat is None:
            self.declarer_next = True
        else:
            self._declare(token, self.seat)

    def _declare(self, token: Token, seat: int) -> None:
        d = self.draft
        if d.kind == RASPASY:
            return
        if d.declarer is not None and d.declarer != seat:
            raise _error(token, f"two declarers: {self.players[d.declarer]} and "
                         f"{self.players[seat]}")
        d.declarer = seat

    def _declarer_says(self, token: Token) -> None:
        """"made" and "down" speak of the declarer: the player of this part."""
        if self.seat is None:
            raise _error(token, "whose result is it? put the declarer's name first")
        if self.draft.kind == RASPASY:
            raise _error(token, "raspasy has no declarer: give each player's tricks")
        self._declare(token, self.seat)
        if self.draft.made or self.draft.down is not None:
            raise _error(token, "the declarer's result is said once")

    def _down(self, token: Token, tricks: int) -> None:
        self._declarer_says(token)
        self.draft.down = tricks

    def _tricks(self, token: Token, count: int) -> None:
        if self.seat is None:
            raise _error(token, "whose tricks are these? put the name first")
        if self.seat in self.draft.tricks:
            raise _error(token, f"{self.players[self.seat]}'s tricks are given twice")
        self.draft.tricks[self.seat] = count

    def _talon(self, tokens: list[Token], i: int) -> int:
        """``talon 2`` or ``talon AH KH``; the index after its arguments."""
        args = tokens[i + 1:i + 3]
        if self.draft.talon is not None:
            raise _error(tokens[i], "the talon is given twice")
        if args and args[0].kind == "word" and args[0].text.isdigit():
            self.draft.talon = int(args[0].text)
            return i + 2
        if len(args) < 2 or any(a.kind != "word" for a in args):
            raise _error(tokens[i], "the talon is two cards (talon AH KH) or its quick "
                         "tricks (talon 2)")
        try:
            cards = (str(parse_written_card(args[0].text)), str(parse_written_card(args[1].text)))
        except CardError as exc:
            raise _error(args[0], str(exc)) from None
        if cards[0] == cards[1]:
            raise _error(args[1], "the talon holds two different cards")
        self.draft.talon = talon_units(cards)
        return i + 3

    def _seat_number(self, token: Token) -> int:
        number = token.text[1:]
        if not number.isdigit() or not 1 <= int(number) <= len(self.players):
            raise _error(token, f"players are numbered #1 to #{len(self.players)}")
        return int(number) - 1

    def _prefix(self, token: Token) -> int:
        word = token.text.lower()
        fits = [s for s, name in enumerate(self.players) if name.lower().startswith(word)]
        if len(fits) == 1:
            return fits[0]
        if fits:
            names = ", ".join(self.players[s] for s in fits)
            raise _error(token, f"'{token.text}' could be {names}: write more of the name")
        raise _error(token, "not a player, a contract or a word of the deal")


def _contract(word: str) -> str | None:
    match = _CONTRACT.fullmatch(word)
    if match is None or match.group(2) not in SUITS:
        return None
    return match.group(1) + SUITS[match.group(2)]


def _number(token: Token) -> int:
    word = token.text.lower()
    if word.isdigit():
        return int(word)
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word]
    raise _error(token, "a number of tricks was expected")
