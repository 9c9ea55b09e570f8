"""Inline keyboard validation and flood-control windows."""

import pytest

from tests.fakebot.errors import ApiError
from tests.fakebot.flood import SENDS, FloodControl, FloodLimits, Limit
from tests.fakebot.keyboards import check_reply_markup


def keyboard(*rows: list[dict[str, str]]) -> dict[str, object]:
    return {"inline_keyboard": list(rows)}


def button(data: str) -> dict[str, str]:
    return {"text": data[:10] or "?", "callback_data": data}


def refusal(markup: object, *, inline_only: bool = False) -> str:
    with pytest.raises(ApiError) as refused:
        check_reply_markup(markup, inline_only=inline_only)
    return refused.value.description


def test_callback_data_is_1_to_64_bytes_of_utf8() -> None:
    assert check_reply_markup(keyboard([button("x" * 64)]))
    assert check_reply_markup(keyboard([button("ж" * 32)]))  # 64 bytes
    for data in ("", "x" * 65, "ж" * 33, "🂡" * 17):
        assert refusal(keyboard([button(data)])) == "Bad Request: BUTTON_DATA_INVALID"


def test_at_most_100_buttons_and_8_per_row() -> None:
    rows = [[button(f"{r}:{c}") for c in range(8)] for r in range(12)] + [[button("a")] * 4]
    assert check_reply_markup(keyboard(*rows))
    too_long = "Bad Request: reply markup is too long"
    assert refusal(keyboard(*rows, [button("b")])) == too_long
    assert refusal(keyboard([button(str(c)) for c in range(9)])) == too_long


def test_url_buttons_and_buttons_without_action() -> None:
    assert check_reply_markup(keyboard([{"text": "Open", "url": "https://t.me/bot?start=x"}]))
    assert refusal(keyboard([{"text": "Open", "url": "not a url"}])) == (
        "Bad Request: BUTTON_URL_INVALID"
    )
    assert "Text buttons are unallowed" in refusal(keyboard([{"text": "plain"}]))


def test_edits_take_inline_keyboards_only_and_empty_keyboards_vanish() -> None:
    reply_keyboard = {"keyboard": [[{"text": "a"}]]}
    assert check_reply_markup(reply_keyboard) == reply_keyboard
    assert refusal(reply_keyboard, inline_only=True) == "Bad Request: inline keyboard expected"
    assert check_reply_markup(keyboard([])) is None


def test_sliding_window_answers_the_wait_until_a_slot_frees() -> None:
    flood = FloodControl(FloodLimits(private_chat=Limit(2, 3.0, SENDS), group_chat=None))
    assert flood.retry_after("sendMessage", 1, False, 100.0) == 0
    flood.record("sendMessage", 1, False, 100.0)
    flood.record("sendMessage", 1, False, 101.0)
    assert flood.retry_after("sendMessage", 1, False, 101.5) == 2  # 100 + 3 - 101.5, rounded up
    assert flood.retry_after("editMessageText", 1, False, 101.5) == 0  # edits not counted here
    assert flood.retry_after("sendMessage", 2, False, 101.5) == 0  # another chat
    assert flood.retry_after("sendMessage", 1, False, 103.0) == 0


def test_overall_limit_spans_chats_and_groups_count_edits() -> None:
    flood = FloodControl(FloodLimits(overall=Limit(3, 1.0), group_chat=Limit(2, 60.0)))
    for chat_id in (1, 2, 3):
        flood.record("sendMessage", chat_id, False, 10.0)
    assert flood.retry_after("sendMessage", 4, False, 10.5) == 1
    flood.record("sendMessage", -5, True, 20.0)
    flood.record("editMessageText", -5, True, 21.0)
    assert flood.retry_after("editMessageReplyMarkup", -5, True, 22.0) == 58
    assert FloodControl(FloodLimits.off()).retry_after("sendMessage", 1, False, 0.0) == 0
