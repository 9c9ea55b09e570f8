"""Driving Seep and Joker tables through their buttons alone, and what the chats were shown.

An action is made the way a player makes it: tap the card (a UI step) when the
panel asks for one, then press the button whose callback data is the action.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

from bot.service.tables import Table
from bot.telegram.context import BotData as Hub
from engine.cards import SUIT_SYMBOLS
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat, Message

QUIET = 0.02  # seconds without a call that count as idle: enough for one press's redraw


def callbacks(message: Message) -> list[str]:
    return [b["callback_data"] for b in message.buttons if "callback_data" in b]


def _step_for(action: str) -> str | None:
    """The card to tap before ``action`` (Seep: every play; Joker: a joker's declaration)."""
    kind, _, rest = action.partition(":")
    if kind in ("bid", "trump"):
        return None
    if kind == "play":
        return "JK" if rest.startswith("JK") else None
    return rest.split(":")[0]  # Seep: cap/build/cement/break/throw:CARD...


async def press(tg: FakeTelegram, user: User, data: str) -> None:
    """Press the button with this data on the user's panel; fails if the bot refuses."""
    answer = await tg.press(user, tg.last_message(user), data=data)
    assert not answer.show_alert, (data, answer.text)
    await tg.idle(quiet=QUIET)


async def make(tg: FakeTelegram, user: User, action: str) -> int:
    """Press the buttons that make ``action``; returns how many presses it took."""
    presses = 0
    step = _step_for(action)
    if step is not None and not _action_button(tg.last_message(user), action):
        tap = [d for d in callbacks(tg.last_message(user))
               if d.startswith("u:") and d.split(":", 4)[4] == step]
        assert len(tap) == 1, (action, callbacks(tg.last_message(user)))
        await press(tg, user, tap[0])
        presses += 1
    data = _action_button(tg.last_message(user), action)
    assert data is not None, (action, callbacks(tg.last_message(user)))
    await press(tg, user, data)
    return presses + 1


def _action_button(message: Message, action: str) -> str | None:
    found = [d for d in callbacks(message) if d.startswith("a:") and d.split(":", 4)[4] == action]
    return found[0] if found else None


# -- what was shown -------------------------------------------------------------------------

_LETTER = {symbol: suit.letter for suit, symbol in SUIT_SYMBOLS.items()}
_CARD = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♣♦♥])")
_DEAL = re.compile(r"\b[Dd]eal (\d+)\b")
_CODE = re.compile(r"(10|[2-9JQKA])[SCDH]")  # a card in callback data
_SUIT_LINE = re.compile(r"^([♠♣♦♥])((?: (?:10|[2-9JQKA]))+)$")  # a hand line "♠ A K 10"


def cards_in(text: str) -> set[str]:
    """Every card a text names: "Q♥" tokens, and hand lines "♠ A K 10"."""
    found = {rank + _LETTER[suit] for rank, suit in _CARD.findall(text)}
    for line in text.splitlines():
        hand = _SUIT_LINE.match(line)
        if hand:
            found |= {rank + _LETTER[hand[1]] for rank in hand[2].split()}
    return found


def revisions(tg: FakeTelegram, chat: Chat | User) -> Iterator[tuple[tuple[int, int], Any]]:
    for message in tg.messages(chat, include_deleted=True):
        for n, revision in enumerate(message.revisions):
            yield (message.message_id, n), revision


class Shown:
    """The cards a chat was shown since the last look (new messages and new edits: texts,
    button labels and callback data). A message whose first line names an earlier deal
    ("Deal 2", "deal 2 of 24") is passed over: the cards it shows were public in that deal."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self._seen: dict[int, set[tuple[int, int]]] = {}

    def new_cards(self, chat: Chat | User, deal_no: int) -> set[str]:
        chat_id = self.tg.private_chat(chat).id if isinstance(chat, User) else chat.id
        seen = self._seen.setdefault(chat_id, set())
        found: set[str] = set()
        for key, revision in revisions(self.tg, chat):
            if key in seen:
                continue
            seen.add(key)
            named = _DEAL.search(revision.content.text.partition("\n")[0])
            if named and int(named[1]) < deal_no:
                continue
            found |= cards_in(revision.content.text)
            for row in (revision.reply_markup or {}).get("inline_keyboard", []):
                for button in row:
                    found |= cards_in(button["text"])
                    found |= {t for t in re.split(r"[:+/]", button.get("callback_data", ""))
                              if _CODE.fullmatch(t)}
        return found


def oversized(tg: FakeTelegram, chats: list[Chat | User]) -> list[str]:
    """Callback data of every button ever shown in these chats that exceeds 64 bytes."""
    return [button["callback_data"] for chat in chats for _, revision in revisions(tg, chat)
            for row in (revision.reply_markup or {}).get("inline_keyboard", [])
            for button in row if len(button.get("callback_data", "").encode()) > 64]


def button_count(tg: FakeTelegram, chats: list[Chat | User]) -> int:
    return sum(len(row) for chat in chats for _, revision in revisions(tg, chat)
               for row in (revision.reply_markup or {}).get("inline_keyboard", []))


# -- the game -----------------------------------------------------------------------------

def seat_users(hub: Hub, users: list[User]) -> dict[int, User]:
    """Each seat's player (the lobby's partner step may have moved them round)."""
    table = only_table(hub)
    by_id = {u.id: u for u in users}
    return {seat: by_id[user_id] for seat in range(len(users))
            if (user_id := table.user_of(seat)) is not None}


def only_table(hub: Hub) -> Table:
    (table,) = hub.services.tables.values()
    return table


async def command(tg: FakeTelegram, user: User, chat: Chat, text: str) -> Message:
    """Send a command in a chat; the bot's answer."""
    tg.send(user, chat, text)
    await tg.settled(chat)
    return tg.last_message(chat)


async def exported(tg: FakeTelegram, user: User, chat: Chat) -> dict[str, Any]:
    """The record /export sends."""
    document = await command(tg, user, chat, "/export")
    assert document.file is not None, document.text
    return json.loads(document.file.data)


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """`python -m engine replay -` of a record: its output document."""
    done = subprocess.run([sys.executable, "-m", "engine", "replay", "-"],
                          input=json.dumps(record), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


class Watch:
    """Checks, after each move, that no chat was shown a card the rules still hide from it;
    ``hidden_from(state, seat)`` names those cards (seat None: the group)."""

    def __init__(self, tg: FakeTelegram, group: Chat, users: list[User],
                 hidden_from: Callable[[Any, int | None], set[str]]) -> None:
        self.tg, self.group, self.users = tg, group, users
        self.hidden_from = hidden_from
        self.shown = Shown(tg)

    def check(self, hub: Hub) -> None:
        match = only_table(hub).match
        deal_no, state = match.deal_count, match.state
        leaks = {}
        for seat, user in seat_users(hub, self.users).items():
            leaked = self.shown.new_cards(user, deal_no) & self.hidden_from(state, seat)
            if leaked:
                leaks[user.first_name] = leaked
        leaked = self.shown.new_cards(self.group, deal_no) & self.hidden_from(state, None)
        if leaked:
            leaks["group"] = leaked
        assert not leaks, leaks


def snapshot(hub: Hub) -> tuple[Any, ...]:
    """Everything a refused press must leave as it was."""
    table = only_table(hub)
    assert table.match is not None
    return (table.match.version, table.match.record(), dict(table.selection),
            table.row.last_seq)


async def refused(tg: FakeTelegram, user: User, message: Message, data: str,
                  reason: str) -> None:
    """A press with this data (forged onto ``message`` if need be) gets an alert saying
    ``reason``."""
    answer = await tg.press(user, message, data=data, forge=True)
    await tg.idle(quiet=QUIET)
    assert answer.show_alert and reason in answer.text, (data, answer.text)
