"""Answering button presses."""

from __future__ import annotations

from typing import Any

from tests.fakebot.errors import QUERY_TOO_OLD, bad_request
from tests.fakebot.model import CallbackAnswer
from tests.fakebot.params import Params
from tests.fakebot.registry import method
from tests.fakebot.world import World

MAX_ANSWER_TEXT = 200


@method("answerCallbackQuery")
async def answer_callback_query(world: World, p: Params) -> Any:
    text = p.text("text")
    if text is not None and len(text) > MAX_ANSWER_TEXT:
        raise bad_request("MESSAGE_TOO_LONG")
    query = world.callback_queries.get(p.text("callback_query_id") or "")
    too_late = query is not None and world.now() - query.created > world.callback_timeout
    if query is None or query.answer.done() or too_late:
        raise bad_request(QUERY_TOO_OLD)
    url = p.text("url")
    if url is not None and world.start_payload(url) is None:
        raise bad_request("URL_INVALID")  # only t.me/<this bot>?start=... links (no games)
    answer = CallbackAnswer(text, p.get("show_alert") is True, url, p.get("cache_time") or 0)
    query.answer.set_result(answer)
    world.answers.append((query.user, answer))
    return True
