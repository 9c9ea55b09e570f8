"""Any request, however malformed, gets a Bot API answer and leaves the fake intact."""

import asyncio
import json
from typing import Any

import aiohttp
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fakebot import FakeTelegram
from tests.fakebot.formatting import FormattedText
from tests.fakebot.params import BOOLEAN_FIELDS, INTEGER_FIELDS, JSON_FIELDS
from tests.fakebot.registry import METHODS

NAMES = sorted(
    INTEGER_FIELDS
    | BOOLEAN_FIELDS
    | JSON_FIELDS
    | {
        "chat_id",
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "url",
        "file_id",
        "document",
        "photo",
        "inline_message_id",
        "secret_token",
        "language_code",
    }
)
USER, GROUP, QUERY = 100_000_001, -4_000_000_001, "4200000000000000001"
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.text(max_size=12)
    | st.sampled_from([USER, GROUP, 1, 2, 3, QUERY, "HTML", "<b>x</b>", "<b>x", "t1:v1:join"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)
    ),
    max_leaves=8,
)


async def exercise(method: str, params: dict[str, Any], as_form: bool) -> tuple[int, Any]:
    async with FakeTelegram() as tg, aiohttp.ClientSession() as session:
        alice = tg.add_user("Alice")
        tg.press_start(alice)
        group = tg.add_group("Table", [alice])
        assert (alice.id, group.id) == (USER, GROUP)
        tg.send(alice, group, "/newgame")
        join = {"inline_keyboard": [[{"text": "Join", "callback_data": "t1:v1:join"}]]}
        table = tg.world.post(group, tg.bot, FormattedText("table"), join)
        tg.press_nowait(alice, table, text="Join")
        url = f"{tg.base_url}{tg.token}/{method}"
        if as_form:  # PTB's way: every value a string, objects JSON-encoded
            form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
            response = await session.post(url, data=form)
        else:
            response = await session.post(url, json=params)
        async with response:
            return response.status, await response.json()


@settings(max_examples=80, deadline=None)
@given(
    method=st.sampled_from(sorted(name for name, _ in METHODS.values())),
    params=st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=6),
    as_form=st.booleans(),
)
def test_every_request_gets_an_answer_never_a_crash(
    method: str, params: dict[str, Any], as_form: bool
) -> None:
    if method == "getUpdates":
        params["timeout"] = 0  # no long poll
    if method == "setWebhook":
        params.pop("url", None)  # never post anywhere
    status, body = asyncio.run(exercise(method, params, as_form))  # stop() raises on a crash
    assert status in (200, 400, 403, 409)
    assert body["ok"] is (status == 200)
    if status != 200:
        assert body["error_code"] == status and isinstance(body["description"], str)
