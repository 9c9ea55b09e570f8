"""Messages the bot keeps up to date (*slots*), and screens as calls.

Showing a new screen in a slot only marks it dirty; its chat's queue sends the latest screen
when the budget allows, so that a burst of presses becomes one edit (latest state wins), and an
identical screen is never sent again. A change its reader need not see at once (the panel of a
player who has nothing to do) waits ``EASY`` seconds, so that the next changes fold into the same
edit (most often into the edit of his next turn); a change he needs (his turn) goes at once,
with what waited.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.constants import ParseMode

from bot.telegram.calls import Call
from bot.ui.screen import Screen

EASY = 5.0  # seconds a panel whose reader need not act may wait, to fold later changes in


class Change(enum.Enum):
    """What a new screen asks of the slot's chat queue."""

    NONE = enum.auto()  # nothing new, or it is queued already
    QUEUE = enum.auto()  # queue the slot
    WAKE = enum.auto()  # it is queued, waiting: it may go now


@dataclass(eq=False)
class Slot:
    """A message kept up to date. ``renew`` asks for a fresh message (it notifies).
    ``thread_id``: the forum topic it lives in (0: none)."""

    key: str
    chat_id: int
    message_id: int | None = None
    thread_id: int = 0
    sent_digest: str | None = None
    screen: Screen | None = None
    renew: bool = False
    queued: bool = False
    due: float = 0.0  # not sent before (monotonic): a change its reader need not see at once
    live: bool = False  # the message on Telegram has buttons
    forgotten: bool = False  # its owner forgot it (another process draws it now): not sent
    even: bool = True  # a group's edits spread over the minute (see ``Outbox.show``)
    # its next edit goes before the chat's one-off messages, unpaced: a deal's end, above
    # which its result must not stand while the table still shows the deal going on
    first: bool = False

    @property
    def pending(self) -> bool:
        """The screen differs from what was last sent (or must be posted anew)."""
        return self.screen is not None and (
            self.renew or self.screen.digest() != self.sent_digest)

    def change(self, screen: Screen, *, renew: bool, easy: bool) -> Change:
        """Show ``screen`` (see ``Outbox.show``); what the chat's queue must do."""
        self.screen = screen
        self.renew = self.renew or renew
        if not self.pending:
            return Change.NONE
        wake = False
        if easy and not (self.renew or self.sent_digest is None or self.live or screen.rows):
            if not self.queued:
                self.due = time.monotonic() + EASY
        elif self.due:
            self.due = 0.0
            wake = True
        if not self.queued:
            self.queued = True
            return Change.QUEUE
        return Change.WAKE if wake else Change.NONE

    def known(self, screen: Screen) -> None:
        """The message shows ``screen`` already (known from elsewhere: nothing to send), unless
        something was shown since."""
        if self.screen is None and not self.queued:
            self.screen, self.sent_digest, self.live = screen, screen.digest(), bool(screen.rows)


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.rows:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        b.text, callback_data=b.data, url=b.url,
        web_app=None if b.web_app is None else WebAppInfo(b.web_app)) for b in row]
        for row in screen.rows])


def message_call(chat_id: int, screen: Screen, *, silent: bool = False, thread_id: int = 0,
                 reply_to: int | None = None) -> Call:
    """A screen as a new message of the chat."""
    buttons = markup(screen)
    return Call("send_message", {
        "chat_id": chat_id, "text": screen.text, "parse_mode": ParseMode.HTML.value,
        "reply_markup": None if buttons is None else buttons.to_dict(),
        "disable_web_page_preview": True, "disable_notification": silent or None,
        "message_thread_id": thread_id or None, "reply_to_message_id": reply_to,
        "allow_sending_without_reply": True if reply_to else None})
