"""Messages the bot keeps up to date (*slots*), and screens as calls.

Showing a new screen in a slot only marks it dirty; its chat's queue sends the latest screen
when the budget allows, so that a burst of presses becomes one edit (latest state wins), and an
identical screen is never sent again. A change its reader need not see at once (the panel of a
player who has nothing to do now, the group's view of a trick still being played) may *wait*:
it is kept, not queued, until the table's next beat (bot/telegram/rhythm.py) or until the
reader must act, when it goes with what waited; buttons that come or change never wait
(but a finished deal's analysis, which stays valid), and buttons that only go wait in a deal
until its round is complete (a player's cards or bids once he acted: pressed, such a button
is answered that it is out of date, and his panel then shows the game at once).
So a table spends its calls by the game's rhythm, at any pace.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.constants import ParseMode

from bot.telegram.calls import Call
from bot.ui.callbacks import lasting
from bot.ui.screen import Screen


class Wait(enum.IntEnum):
    """How long a slot's new screen may wait (``Slot.change``); held together, the least."""

    NOT = 0  # it goes now
    TEXT = 1  # what it says waits for the table's next beat; buttons that come, change or go do not
    GOING = 2  # ... and buttons that only go wait too (a player's cards once he played)


@dataclass(eq=False)
class Slot:
    """A message kept up to date. ``renew`` asks for a fresh message (it notifies).
    ``thread_id``: the forum topic it lives in (0: none)."""

    key: str
    chat_id: int
    message_id: int | None = None
    thread_id: int = 0
    sent_digest: str | None = None
    sent_buttons: Buttons | None = None  # the buttons of what was last sent (``buttons``)
    screen: Screen | None = None
    renew: bool = False
    queued: bool = False
    urgent: bool = False  # a change that may not wait came since the last send
    forgotten: bool = False  # its owner forgot it (another process draws it now): not sent
    even: bool = True  # a group's edits spread over the minute (see ``Outbox.show``)
    # its next edit goes before the chat's one-off messages, unpaced: a deal's end, above
    # which its result must not stand while the table still shows the deal going on
    first: bool = False
    # in a private chat: its edits one a chat's window / limit apart (about a second), not in
    # a burst and a wait: a keeper's entry, whose reader waits for each next question
    spaced: bool = False
    since: float = 0.0  # time.monotonic() of its latest change (the newest go first: gate.py)

    @property
    def pending(self) -> bool:
        """The screen differs from what was last sent (or must be posted anew)."""
        return self.screen is not None and (
            self.renew or self.screen.digest() != self.sent_digest)

    def change(self, screen: Screen, *, renew: bool, wait: Wait) -> bool:
        """Show ``screen`` (see ``Outbox.show``): whether the slot is to be queued now. A
        change that may ``wait`` waits, unless it renews the message, this process has not
        sent it yet (a new message, a restart, a table taken over: what it shows is unknown,
        or known only by its stored digest) or its buttons come or change (a button shown is
        one that may be pressed), or go where they may not wait, from those the message shows,
        or will once what is queued or being sent lands."""
        shown = buttons(self.screen) if self.queued and self.screen is not None \
            else self.sent_buttons
        self.screen = screen
        self.renew = self.renew or renew
        if not self.pending:
            return False
        self.since = time.monotonic()
        new = buttons(screen)
        self.urgent = self.urgent or wait is Wait.NOT or self.renew or shown is None \
            or (new != shown and not (wait is Wait.GOING and only_go(new, shown)))
        if self.queued or not self.urgent:
            return False  # (queued, it goes with what is queued; else it waits)
        self.queued = True
        return True

    def sent(self, screen: Screen, digest: str) -> None:
        """Telegram shows ``screen`` now."""
        self.sent_digest, self.sent_buttons = digest, buttons(screen)

    def known(self, screen: Screen) -> None:
        """The message shows ``screen`` already (known from elsewhere: nothing to send), unless
        something was shown since."""
        if self.screen is None and not self.queued:
            self.screen = screen
            self.sent(screen, screen.digest())


Buttons = tuple[tuple[str | None, str | None, str | None], ...]


def buttons(screen: Screen) -> Buttons:
    """What a screen's buttons do (their words aside, and those that may be pressed however
    old the message: a finished deal's analysis may come or go late)."""
    return tuple((b.data, b.url, b.web_app) for row in screen.rows for b in row
                 if not lasting(b.data))


def only_go(new: Buttons, shown: Buttons) -> bool:
    """Some of the buttons shown go and none comes: a waiting player's, those he acted from."""
    return set(new) < set(shown)


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
