"""Playing through the Mini App as a person does (taps on cards and buttons in Chromium), and
reading back what the page and the other channels showed."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientSession
from playwright.async_api import Page

from tests.bot.privacy import cards_in
from tests.bot.tabletop import QUIET
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat, Message
from tests.webapp.harness import drawn_after, version

CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])[SCDH](?![0-9A-Za-z])")  # "QH" in JSON


async def tap(tg: FakeTelegram, page: Page, action: str) -> None:
    """Make ``action`` by taps, as its player would: the cards it plays (a discard's two, then
    its confirmation; a card with several moves, then the move), or its button. Waits until
    the page is drawn anew and the bot is idle."""
    before = await version(page)
    offered = await page.evaluate("app.state.page.drawing.actions")
    (chosen,) = [a for a in offered if a["action"] == action]
    for card in chosen["cards"]:
        await page.click(f".card.legal[data-card='{card}'] >> nth=0")
    alike = [a for a in offered if a["cards"] == chosen["cards"]]
    if len(chosen["cards"]) != 1 or len(alike) > 1:  # a button, or the card's move
        await page.click(f"#actions button[data-action='{action}']")
    await drawn_after(page, before)
    await tg.idle(quiet=QUIET)


async def hand(page: Page) -> list[str]:
    return await page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")


async def legal_cards(page: Page) -> set[str]:
    return set(await page.eval_on_selector_all(
        ".card.legal", "cs => cs.map(c => c.dataset.card)"))


async def dom_cards(page: Page) -> set[str]:
    """Every card the page's document names: drawn cards, and cards in its texts but for
    calls ("7♠" is a bid: a seat's call, a bid's button, the lines of bids)."""
    drawn = set(await page.eval_on_selector_all("[data-card]", "cs => cs.map(c => c.dataset.card)"))
    text = await page.evaluate("""() => {
        const copy = document.body.cloneNode(true);
        copy.querySelectorAll('.seat .note, [data-action]').forEach(e => {
            if (/^(bid|contract|whist|open):/.test(e.dataset.action || 'bid:')) e.remove();
        });
        return copy.innerText;
    }""")
    return drawn | cards_in(text) | codes(text)


def codes(text: str) -> set[str]:
    return {m.group(0) for m in CODE.finditer(text)}


CALLS = ("bid:", "contract:", "whist:", "open:")


def page_cards(doc: Any) -> set[str]:
    """Every card a page (JSON) names, in any field: as a code ("QH") or in a text ("Q♥"),
    but for calls (a seat's ``note``, a call's ``action`` and ``label``: "7S" is a bid)."""
    if isinstance(doc, dict):
        call = str(doc.get("action", "")).startswith(CALLS)
        return {c for k, v in doc.items()
                if k != "note" and not (call and k in ("action", "label"))
                for c in page_cards(v)}
    if isinstance(doc, list):
        return {c for v in doc for c in page_cards(v)}
    return codes(doc) | cards_in(doc) if isinstance(doc, str) else set()


def panel_cards(message: Message) -> set[str]:
    """The cards a panel's buttons play or pick (their callback data names them; a call's
    does not: "bid:7S" is a bid)."""
    found = set()
    for button in message.buttons:
        data = button.get("callback_data", "")
        if data.startswith(("a:", "u:")):
            what = data.split(":", 4)[4]
            if what == "JK" or what.startswith("play:JK"):
                found.add("JK")
            elif what.startswith("discard"):
                found |= codes(what)
            elif not what.startswith(CALLS) and (first := CODE.search(what)):
                found.add(first.group(0))  # the card played (a Seep move names floor cards too)
    return found


def hand_of(panel: str) -> list[str]:
    """The cards of a panel's hand: its hand lines ("♠ A K 10"), or a line of cards after
    "Your hand:" (Seep)."""
    lines = panel.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("Your hand")), None)
    if start is None:
        return []
    if lines[start].strip() != "Your hand:":
        return sorted(cards_in(lines[start].partition(":")[2]))
    held = []
    for line in lines[start + 1:]:
        if line.startswith("🃏"):
            held += ["JK"] * line.count("🃏")
            continue
        found = cards_in(line)
        if not found:
            break
        held += sorted(found)
    return held


def panel_prompt(message: Message) -> str:
    """The panel's last line but the way back to the group (a Mini App page needs none)."""
    kept = "\n".join(line for line in message.text.split("\n") if not line.startswith("↩"))
    return kept.rstrip().rsplit("\n", 1)[-1]


def table_message(tg: FakeTelegram, group: Chat) -> Message:
    """The group's table message: the one with the Mini App's link."""
    return next(m for m in reversed(tg.messages(group))
                if any("startapp=" in b.get("url", "") for b in m.buttons))


async def text_of(page: Page, selector: str) -> str:
    return (await page.inner_text(selector)).strip()


@dataclass
class Stream:
    """A reader's event stream read as the page reads it: every page it was sent."""

    url: str
    init: str
    table: int
    pages: list[str] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Stream:
        self._session = ClientSession()
        answer = await self._session.get(self.url + "api/events",
                                         params={"initData": self.init, "table": str(self.table)})
        assert answer.status == 200, answer.status
        self._task = asyncio.create_task(self._read(answer))
        return self

    async def _read(self, answer: Any) -> None:
        async for line in answer.content:
            if line.startswith(b"data: "):
                self.pages.append(line[6:].decode())

    def take(self) -> list[str]:
        taken, self.pages = self.pages, []
        return taken

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        await self._session.close()


def stream_cards(pages: list[str]) -> set[str]:
    return {c for text in pages for c in page_cards(json.loads(text))}


async def panel_in_sync(tg: FakeTelegram, user: User) -> Message:
    await tg.idle(quiet=QUIET)
    return tg.last_message(user)
