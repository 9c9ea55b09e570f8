"""Which cards a chat has been shown: read back from the bot's texts and buttons."""

from __future__ import annotations

import re

from bot.telegram.context import BotData as Hub
from engine.cards import SUIT_SYMBOLS
from engine.preferans.state import State
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat

_LETTER = {symbol: suit.letter for suit, symbol in SUIT_SYMBOLS.items()}
_RANK = r"(?:10|[2-9JQKA])"
_CARD = re.compile(rf"({_RANK})([♠♣♦♥])")
_SUIT_LINE = re.compile(rf"([♠♣♦♥])((?: {_RANK})+)")  # a whole "♠ A K 10" segment
# Lines that name bids and contracts ("7♥" there is not a card).
_BID_LINES = ("Bids:", "Contract:", "Whists:")


def cards_in(text: str) -> set[str]:
    """Cards named in a panel or table text: "Q♥" tokens and hand lines "♠ A K 10"."""
    found: set[str] = set()
    for line in text.splitlines():
        if line.startswith(_BID_LINES) or "won the auction" in line:
            continue
        found |= {rank + _LETTER[symbol] for rank, symbol in _CARD.findall(line)}
        # Hand lines, alone or after "Bob (face up): ", joined by " · ".
        for segment in line.rpartition(": ")[2].split(" · "):
            hand = _SUIT_LINE.fullmatch(segment)
            if hand:
                found |= {rank + _LETTER[hand[1]] for rank in hand[2].split()}
    return found


_DEAL_NAMED = re.compile(r"\bdeal (\d+)\b")  # a table's header: "Preferans · … · deal 3"
_DEAL_END = re.compile(r"^🔚 Deal (\d+) is over\.")


def by_deal(text: str) -> list[tuple[int | None, str]]:
    """A table message's or panel's text split by the deal each part shows (None: no deal
    named): the end of the last deal above the table ("🔚 Deal 2 is over.", its last trick;
    the result under it names contracts, not cards, as the group's "Deal 2" message does),
    then the deal its header names."""
    parts: list[tuple[int | None, str]] = []
    ended = _DEAL_END.match(text)
    if ended:
        block, _, text = text.partition("\n\n")
        head = block.split("\n")
        summary = head.index(f"Deal {ended[1]}") if f"Deal {ended[1]}" in head else len(head)
        parts.append((int(ended[1]), "\n".join(head[:summary])))
    named = _DEAL_NAMED.search(text.partition("\n")[0])
    parts.append((int(named[1]) if named else None, text))
    return parts


class Shown:
    """The cards each chat was shown since the last look (new messages and new edits), by
    the deal whose screen showed them: a screen of a deal may reach the chat after the next
    deal began (a waiting panel's edit goes a moment later), and must show no more than that
    deal made public."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self._seen: dict[tuple[int, int], int] = {}

    def new_cards(self, chat: Chat) -> dict[int | None, set[str]]:
        found: dict[int | None, set[str]] = {}
        for message in self.tg.messages(chat, include_deleted=True):
            key = (chat.id, message.message_id)
            for revision in message.revisions[self._seen.get(key, 0):]:
                text = revision.content.text
                if text.startswith("Deal "):
                    continue  # a deal's summary names contracts, not cards
                parts = by_deal(text)
                for deal, part in parts:
                    found.setdefault(deal, set()).update(cards_in(part))
                live = found.setdefault(parts[-1][0], set())  # the buttons: of the deal shown
                for row in (revision.reply_markup or {}).get("inline_keyboard", []):
                    for button in row:
                        if button.get("callback_data", "").startswith(("a:play:", "u:")) or \
                                ":play:" in button.get("callback_data", ""):
                            live.update(cards_in(button["text"]))
            self._seen[key] = len(message.revisions)
        return found


def concealed_from(state: State, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: the group) may not know now."""
    public = {c for c in state.view(None)["talon"]}
    for cards in state.view(None)["exposed"].values():
        public |= set(cards)
    hidden = {str(c) for other in range(state.n) if other != seat for c in state.hands[other]}
    if seat != state.declarer:
        hidden |= {str(c) for c in state.discarded}
    hidden |= {str(c) for c in state.talon}
    return hidden - public


class Privacy:
    """After each press: no chat was shown a card the rules hide from it, in the deal the
    screen showing it belongs to (a finished deal: as it ended; unnamed: the deal in play)."""

    def __init__(self, tg: FakeTelegram, hub: Hub, users: list[User], group: Chat) -> None:
        self.tg, self.hub, self.users, self.group = tg, hub, users, group
        self.shown = Shown(tg)
        self.deals: dict[int, State] = {}  # deal number -> its state (a finished one as it ended)
        self.late = 0  # screens of a deal that reached a chat after the next deal began

    def check(self) -> None:
        match = next(iter(self.hub.services.tables.values())).match
        assert match is not None and match.state is not None
        self.deals[match.deal_count] = match.state
        leaks = {}
        chats = [(u.first_name, self.tg.private_chat(u), seat) for seat, u in enumerate(self.users)]
        for name, chat, seat in [*chats, ("group", self.group, None)]:
            for deal, cards in self.shown.new_cards(chat).items():
                self.late += deal is not None and deal < match.deal_count and bool(cards)
                state = match.state if deal is None else self.deals[deal]
                leaked = cards & concealed_from(state, seat)
                if leaked:
                    leaks[f"{name} (deal {deal})"] = leaked
        assert not leaks, leaks
