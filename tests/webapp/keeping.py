"""A keeper entering deals by taps in the Mini App (issue 33.3), as fast as each next question
shows and never faster than a given rate: the scenario of ``tests/webapp/test_keep.py`` and of
``python -m bench --only keep``.

Each deal's answers are picked at random among the buttons the page offers, and entered
beside the bot on a match of the test's own (``Entered.model``): the engine scores what was
tapped, apart from the bot, so that the stored sheet can be compared with it. Every screen's
question and answers are checked against what the game's entry words give for the model.
"""

from __future__ import annotations

import asyncio
import copy
import random
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page, Response

from bot.screens.look import context, plugin_of
from bot.service.drafts import Draft, next_match, plan
from bot.service.tables import Table
from bot.ui.i18n import translator
from engine.manual import add_entry, form_for
from engine.match import Match
from storage.rows import TableRow

EN = translator("en")
SAVE_SOON = 0.3  # the chance of saving a complete entry that could take an optional answer


@dataclass
class Entered:
    """What entering took: each tap's wait until the next question showed, ready to tap (s);
    the taps the server refused (status and words); the wall time; the deals as tapped."""

    model: Match
    waits: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    seconds: float = 0.0


def offered(keep: dict[str, Any]) -> dict[str, str]:
    """The entry's buttons on the page: action -> label."""
    return {b["action"]: b["label"] for row in keep["rows"] for b in row}


def answers(keep: dict[str, Any], op: str) -> dict[str, str]:
    """The buttons of one kind (``c`` an answer, ``k`` a key, ``dealer``, ``save``): the
    button's last part (its answer, key or seat; "" for Save) -> its action."""
    found = {}
    for action in offered(keep):
        parts = action.split(":")
        if parts[0] == op:
            found[parts[3] if len(parts) > 3 else ""] = action
    return found


async def keep_of(page: Page) -> dict[str, Any] | None:
    return await page.evaluate("app.state.page.keep")


async def tap(page: Page, action: str) -> float:
    """Tap the entry's button; how long until the page shows what comes next (another
    revision of the draft, or a new version of the sheet) with its buttons ready."""
    before = await page.evaluate("[app.state.page.version, app.state.page.keep.revision]")
    start = time.monotonic()
    await page.click(f"#keep button[data-action='{action}']")
    await page.wait_for_function(
        """([version, revision]) => { const p = app.state.page;
            return !app.state.busy && (p.version !== version || !p.keep
                                       || p.keep.revision !== revision); }""",
        arg=before, polling=5)
    return time.monotonic() - start


async def enter_deals(page: Page, row: TableRow, match: Match, deals: int,
                      rng: random.Random, taps_a_second: float = 3.0) -> Entered:
    """Tap until the sheet has ``deals`` deals (or the game ends): the table's ``row`` and its
    ``match`` now (as stored, or held by the bot)."""
    ui = plugin_of(Table(row)).entry
    got = Entered(copy.deepcopy(match))
    refused: list[Response] = []

    def answered(response: Response) -> None:
        if "api/press" in response.url and response.status != 200:
            refused.append(response)

    page.on("response", answered)
    start, last, dealer = time.monotonic(), 0.0, None
    taps: list[tuple[Any, ...]] = []
    while len(got.model.deals) < deals and not got.model.over:
        keep = await keep_of(page)
        assert keep is not None, "the keeper sees no entry"
        base = next_match(got.model, Draft(dealer=dealer))
        if base is None:  # deal 1: who dealt
            dealer = rng.randrange(len(got.model.players))
            presses = [answers(keep, "dealer")[str(dealer)]]
        else:
            form = form_for(base)
            ctx = context(Table(row, match=base), EN)  # as the bot's, if it holds the model
            now = plan(form, taps, ui.merge)
            if now.complete and (now.step is None or rng.random() < SAVE_SOON):
                presses = [answers(keep, "save")[""]]
                got.model = base  # deal 1 added to the match its dealer gives
                add_entry(got.model, now.entry)
                taps = []
            else:
                assert now.step is not None
                assert f"<b>{ui.question(form, now.step, now.entry, ctx)}</b>" in keep["text"]
                if now.keypad:
                    value = rng.choice(now.step.choices)
                    keys = answers(keep, "k")
                    presses = [keys[digit] for digit in str(value)] + [keys["ok"]]
                    taps.append((value,))
                else:
                    shown = answers(keep, "c")
                    assert sorted(offered(keep)[shown[str(i)]] for i in range(len(now.paths))) \
                        == sorted(ui.label(path, ctx) for path in now.paths)
                    assert len(shown) == len(now.paths)
                    chosen = rng.randrange(len(now.paths))
                    presses = [shown[str(chosen)]]
                    taps.append(tuple(value for _, value in now.paths[chosen]))
        for number, action in enumerate(presses):
            if number:  # a number's next key: the keypad as it is now
                keep = await keep_of(page)
                assert keep is not None
                action = answers(keep, "k")[action.split(":")[3]]
            await asyncio.sleep(max(0.0, last + 1 / taps_a_second - time.monotonic()))
            last = time.monotonic()
            got.waits.append(await tap(page, action))
    got.seconds = time.monotonic() - start
    got.refused = [f"{r.status}: {await r.text()}" for r in refused]
    return got

