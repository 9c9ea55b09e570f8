"""Properties of the entry screens, without a bot: any sequence of presses gives an entry
that the pre-filled correction and the one-line text form give back, and the buttons of
every screen can be told apart."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import PLUGINS
from bot.screens.scorekeeping import entry_text
from bot.service.drafts import Plan, plan, taps_of
from bot.ui.context import RenderContext
from bot.ui.i18n import translator
from engine.manual import EntryForm, form_for
from tests.manual.helpers import NAMES, match, random_game
from tests.manual.test_properties import GAMES


def press_randomly(form: EntryForm, game: str, rng: random.Random,
                   ctx: RenderContext) -> Plan:
    """Presses until the entry is complete (an optional step is skipped at random),
    checking each screen's button labels on the way."""
    ui = PLUGINS[game].entry
    taps: list[tuple[Any, ...]] = []
    now = plan(form, taps, ui.merge)
    while now.step is not None and not (now.complete and rng.random() < 0.5):
        if now.keypad:
            taps.append((rng.choice(now.step.choices),))
        else:
            labels = [ui.label(path, ctx) for path in now.paths]
            assert all(labels) and len(set(labels)) == len(labels), labels
            taps.append(tuple(value for _, value in rng.choice(now.paths)))
        now = plan(form, taps, ui.merge)
    assert now.complete
    return now


@settings(max_examples=80, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**9))
def test_presses_read_back_as_correction_and_text(game: tuple[str, dict[str, Any]],
                                                  seed: int) -> None:
    name, rules = game
    rng = random.Random(seed)
    m = match(name, **rules)
    random_game(m, rng.randrange(5), rng)
    if m.over:
        return
    form = form_for(m)
    ctx = RenderContext(1, NAMES[:len(m.players)], m.rules.to_dict(), len(m.deals),
                        translator("en"))
    now = press_randomly(form, name, rng, ctx)
    ui = PLUGINS[name].entry
    form.result(now.entry)  # the rules accept what the buttons offered
    assert plan(form, taps_of(form, now.entry), ui.merge).entry == now.entry
    assert ui.parse(form, entry_text(ui, form, now.entry)) == now.entry
    assert ui.so_far(form, now.answered, ctx)
