"""Reply markup validation, with the limits and answers of the real server."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from tests.fakebot.errors import bad_request

MAX_BUTTONS = 100
MAX_ROW = 8
MAX_MARKUP_BYTES = 10 * 1024
MAX_CALLBACK_DATA = 64
BUTTON_KINDS = (
    "url", "callback_data", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat",
    "callback_game", "pay", "web_app", "copy_text",
)  # fmt: skip
REPLY_KEYBOARD_KEYS = ("keyboard", "remove_keyboard", "force_reply")


def valid_url(url: str) -> bool:
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme == "tg":
        return bool(parts.netloc)
    return parts.scheme in ("http", "https") and "." in parts.netloc and " " not in url


def _check_button(button: Any) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    kinds = [kind for kind in BUTTON_KINDS if kind in button]
    if not kinds:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button and not (isinstance(button["url"], str) and valid_url(button["url"])):
        raise bad_request("BUTTON_URL_INVALID")


def check_reply_markup(markup: Any, *, inline_only: bool = False) -> dict[str, Any] | None:
    """The markup to store, or the 400 the server answers for it."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if inline_only or not any(key in markup for key in REPLY_KEYBOARD_KEYS):
            raise bad_request(
                "inline keyboard expected"
                if inline_only
                else "can't parse reply keyboard markup JSON object"
            )
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(
            'Field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    for row in rows:
        for button in row:
            _check_button(button)
    too_many = sum(map(len, rows)) > MAX_BUTTONS or any(len(row) > MAX_ROW for row in rows)
    if too_many or len(json.dumps(markup, ensure_ascii=False).encode()) > MAX_MARKUP_BYTES:
        raise bad_request("reply markup is too long")
    if not any(rows):
        return None  # an empty inline keyboard is no keyboard
    return markup


def inline_buttons(markup: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every button of an inline keyboard, row by row."""
    if not markup or "inline_keyboard" not in markup:
        return []
    return [button for row in markup["inline_keyboard"] for button in row]
