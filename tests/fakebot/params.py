"""Request parameters, decoded the way the Bot API decodes them.

The Bot API takes parameters as a query string, an urlencoded or multipart form
(every value a string, objects JSON-encoded) or a JSON body (typed values). PTB
posts forms. A parameter name has one type across all methods, so decoding is
one table; names not in it stay as sent.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

from tests.fakebot.errors import bad_request

INTEGER_FIELDS = frozenset(
    {
        "message_id", "user_id", "offset", "limit", "timeout", "cache_time",
        "max_connections", "reply_to_message_id", "message_thread_id", "until_date",
    }
)  # fmt: skip
BOOLEAN_FIELDS = frozenset(
    {
        "show_alert", "disable_notification", "protect_content", "drop_pending_updates",
        "allow_sending_without_reply", "disable_web_page_preview", "has_spoiler",
        "disable_content_type_detection", "only_if_banned", "show_caption_above_media",
    }
)  # fmt: skip
JSON_FIELDS = frozenset(
    {
        "reply_markup", "entities", "caption_entities", "commands", "scope",
        "allowed_updates", "reply_parameters", "link_preview_options",
    }
)  # fmt: skip


@dataclass(frozen=True)
class UploadedFile:
    """One file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


def _integer(name: str, value: Any) -> int:
    if isinstance(value, int):  # bool included
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return int(value)
    raise bad_request(f'field "{name}" must be of type Integer')


def _boolean(name: str, value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1")
    if isinstance(value, int):
        return bool(value)
    raise bad_request(f'field "{name}" must be of type Boolean')


def _decode(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name == "chat_id" and isinstance(value, str):
        with contextlib.suppress(ValueError):
            return int(value)
        return value  # an @username
    if name in INTEGER_FIELDS:
        return _integer(name, value)
    if name in BOOLEAN_FIELDS:
        return _boolean(name, value)
    if name in JSON_FIELDS and isinstance(value, str):
        try:
            return json.loads(value) if value else None
        except ValueError:
            raise bad_request(f"can't parse {name} JSON object") from None
    return value


class Params:
    """One request's parameters, decoded by name (files kept as UploadedFile)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.values = {name: _decode(name, value) for name, value in raw.items()}

    def get(self, name: str) -> Any:
        value = self.values.get(name)
        return None if value == "" else value

    def text(self, name: str) -> str | None:
        value = self.get(name)
        return value if isinstance(value, str) else None

    def file(self, name: str) -> UploadedFile | str | None:
        """An InputFile parameter: an uploaded part (direct or attach://) or a file_id/URL."""
        value = self.get(name)
        if isinstance(value, str) and value.startswith("attach://"):
            value = self.get(value.removeprefix("attach://"))
        return value if isinstance(value, UploadedFile | str) else None

    def loggable(self) -> dict[str, Any]:
        """The parameters as the call log keeps them: files summarised."""
        return {
            name: f"<file {value.filename!r}, {len(value.data)} bytes>"
            if isinstance(value, UploadedFile)
            else value
            for name, value in self.values.items()
        }
