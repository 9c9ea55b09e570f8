"""Which cards a chat has been shown: read back from the bot's texts and buttons."""

from __future__ import annotations

import re

from engine.cards import SUIT_SYMBOLS
from tests.fakebot import FakeTelegram
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


class Shown:
    """The cards each chat was shown since the last look (new messages and new edits)."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self._seen: dict[tuple[int, int], int] = {}

    def new_cards(self, chat: Chat) -> set[str]:
        found: set[str] = set()
        for message in self.tg.messages(chat, include_deleted=True):
            key = (chat.id, message.message_id)
            for revision in message.revisions[self._seen.get(key, 0):]:
                text = revision.content.text
                if text.startswith("Deal "):
                    continue  # a deal's summary names contracts, not cards
                if text.startswith("🔚 "):  # the end of the last deal: its cards are public
                    text = text.partition("\n\n")[2]
                found |= cards_in(text)
                for row in (revision.reply_markup or {}).get("inline_keyboard", []):
                    for button in row:
                        if button.get("callback_data", "").startswith(("a:play:", "u:")) or \
                                ":play:" in button.get("callback_data", ""):
                            found |= cards_in(button["text"])
            self._seen[key] = len(message.revisions)
        return found
