"""Every refusal or note code the bot's code can answer with has its text, in every
language: an answer is never empty (before, /undo with nothing entered got no answer)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.catalog import COMPLETE, for_games
from bot.screens.refusals import bot_templates, choices, engine_templates
from bot.ui.i18n import translator
from tests.i18n.test_refusals import calls

BOT = Path(__file__).parent.parent.parent / "bot"
MAKERS = {"refuse", "Refusal", "done", "Refused"}  # calls whose first argument is a code
# Notes a front end words itself, with what the outcome carries (not a template).
WORDED_BY_FRONT_ENDS = {"added", "help", "language_set"}


def codes() -> Iterator[tuple[str, str]]:
    """(code, where) of every literal code given to a refusal or a note in bot/."""
    for path, node in calls(BOT, MAKERS):
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield first.value, f"{path.relative_to(BOT.parent)}:{node.lineno}"


def test_every_code_the_bot_answers_with_has_a_template() -> None:
    known = bot_templates(lambda t: t).keys() | engine_templates(lambda t: t).keys()
    found = list(codes())
    assert len(found) > 100
    missing = [(code, where) for code, where in found
               if code not in known and code not in WORDED_BY_FRONT_ENDS]
    assert not missing


def worded(text: str) -> bool:
    """Whether a template has words of its own to translate (not only placeholders and
    punctuation, as ``{option}: {value}``)."""
    return any(c.isalpha() for c in re.sub(r"\{[^}]*\}", "", text))


@pytest.mark.parametrize("language", [*COMPLETE, *for_games()])
def test_every_bot_template_is_translated(language: str) -> None:
    tr = translator(language)
    used = {code for code, _ in codes()}
    untranslated = [(code, text) for code, template in bot_templates(lambda t: t).items()
                    if code in used for text in choices(template)
                    if tr(text) == text and worded(text)]
    assert not untranslated
