"""What a game's entry form looks like in the group: questions, buttons, the one-line form.

``EntryUI`` holds what every game shares: button labels joined along a path,
the entry so far as one line, and the plain text form, the answers in the
order the buttons ask them (``/deal H 2 3 1 2 3 2 3 1`` for a Joker deal:
trump, bids, tricks); an answer that has one possible value may be left out.
Preferans replaces the text form by its own grammar.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Sequence
from html import escape
from typing import Any

from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.base import MalformedAction
from engine.manual import EntryForm, Step, fill

_WORDS = re.compile(r"[^\s,;]+")


class EntryUI(ABC):
    """One game's words for its entry steps."""

    game: str

    # -- the buttons ------------------------------------------------------------------

    @abstractmethod
    def question(self, form: EntryForm, step: Step, entry: Any, ctx: RenderContext) -> str:
        """What the message asks for ``step`` (HTML)."""

    @abstractmethod
    def choice(self, step: Step, value: Any, ctx: RenderContext) -> str:
        """A button's words for one answer."""

    @abstractmethod
    def answer(self, form: EntryForm, step: Step, value: Any, ctx: RenderContext) -> str:
        """An answered step in the entry so far (HTML), or "" to leave it out."""

    def merge(self, step: Step, value: Any, following: Step) -> bool:
        """Whether one button answers ``following`` too (see ``draft``)."""
        return False

    def so_far(self, form: EntryForm, answered: Sequence[tuple[Step, Any]],
               ctx: RenderContext) -> str:
        """The entry so far, one line (HTML)."""
        parts = (self.answer(form, step, value, ctx) for step, value in answered)
        return " · ".join(p for p in parts if p)

    def label(self, path: Sequence[tuple[Step, Any]], ctx: RenderContext) -> str:
        return " · ".join(self.choice(step, value, ctx) for step, value in path
                          if not step.forced)

    def width(self, step: Step) -> int:
        """Buttons per row for the step."""
        return 6

    def group(self, step: Step, path: Sequence[tuple[Step, Any]]) -> Any:
        """Buttons of one group share a row (None: rows of ``width``)."""
        return None

    def deal_line(self, form: EntryForm, ctx: RenderContext) -> str:
        """What the sheet says about the deal before it (HTML), beside the dealer."""
        return ""

    def final_view(self, form: EntryForm, entry: Any) -> dict[str, Any]:
        """The game's ``deal_summary`` reads the deal's final view; an entered deal has
        none, so this is the part of it the summary needs."""
        return {}

    # -- the text form ----------------------------------------------------------------

    def spellings(self, step: Step, value: Any) -> tuple[str, ...]:
        """How the text form may write an answer (the first is how it is written back)."""
        return (str(value),)

    def parse(self, form: EntryForm, text: str) -> Any:
        """An entry from the text form; ActionError says what is wrong."""
        words = deque(_WORDS.findall(text))

        def answer(step: Step, entry: Any) -> Any:
            if not words:
                return None
            value = self._read(step, words[0])
            if step.forced and value != step.choices[0]:
                return None  # left out: its one answer; the word is the next step's
            words.popleft()
            return value

        entry = fill(form, answer)
        if words:
            raise MalformedAction("bad_text", f"'{words[0]}' is more than the deal needs")
        return entry

    def _read(self, step: Step, word: str) -> Any:
        for value in step.choices:
            if any(word.casefold() == s.casefold() for s in self.spellings(step, value)):
                return value
        return int(word) if word.isdigit() else word  # the form says why it does not fit

    def to_text(self, form: EntryForm, entry: Any,
                answered: Sequence[tuple[Step, Any]]) -> str:
        """The entry in the text form (``answered``: its steps and answers, in order)."""
        return " ".join(self.spellings(step, value)[0] for step, value in answered)

    @abstractmethod
    def text_help(self, tr: Translate) -> str:
        """How to write a deal in one line (HTML), for /deal alone."""


def who(ctx: RenderContext, seat: int | None) -> str:
    """A player's name for HTML."""
    return escape(ctx.names[seat]) if seat is not None and 0 <= seat < len(ctx.names) else "?"
