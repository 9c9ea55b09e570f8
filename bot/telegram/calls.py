"""One-off calls as data: a Bot method's name, its parameters as JSON, a file's bytes.

A call that is data can be stored and made by another process: in worker mode the outbox
stores each one-off call a unit of work sends (storage/sends.py) in the unit's transaction,
and a worker that finds the calls of a dead one makes them (bot/telegram/worker.py).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputFile

FILES = {"send_photo": "photo", "send_document": "document"}  # method -> its file's parameter


@dataclass(eq=False)
class Call:
    """``method``: the Bot's method (``send_message``); ``params``: its parameters as JSON
    (a ``reply_markup`` as Telegram's dict; an upload's ``filename``); ``file``: the upload's
    bytes, or ``draw`` makes them (in a thread) when needed; ``after``: what the owner of the
    outbox does with what the call made (``Delivery.call_sent``: the message sent) or with
    its refusal (``Delivery.call_refused``); ``fill``: what it fills in when the call's turn
    comes (``Delivery.call_ready``: from what is stored by then)."""

    method: str
    params: dict[str, Any]
    file: bytes | None = None
    draw: Callable[[], bytes] | None = None
    after: dict[str, Any] | None = None
    fill: dict[str, Any] | None = None

    async def drawn(self) -> bytes | None:
        """The file's bytes, drawn now if they are not yet."""
        if self.file is None and self.draw is not None:
            self.file = await asyncio.to_thread(self.draw)
        return self.file

    def text(self) -> str:
        """The call as JSON (all but the file)."""
        return json.dumps({"method": self.method, "params": self.params, "after": self.after,
                           "fill": self.fill}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def of(cls, text: str, file: bytes | None) -> Call:
        data = json.loads(text)
        return cls(data["method"], data["params"], file, after=data["after"], fill=data["fill"])


async def perform(bot: Bot, call: Call) -> Any:
    """Make the call; what Telegram answered."""
    kwargs = dict(call.params)
    if kwargs.get("reply_markup") is not None:
        kwargs["reply_markup"] = InlineKeyboardMarkup.de_json(kwargs["reply_markup"], bot)
    if call.method in FILES:
        data = await call.drawn()
        assert data is not None, f"{call.method} without a file"
        kwargs[FILES[call.method]] = InputFile(BytesIO(data), filename=kwargs.pop("filename"))
    return await getattr(bot, call.method)(**kwargs)
