"""HTML parse mode, entity offsets and text limits."""

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fakebot.errors import ApiError
from tests.fakebot.formatting import FormattedText, format_text, user_text, utf16_len


def test_html_tags_become_entities_with_utf16_offsets() -> None:
    formatted = format_text("🂡 <b>Ace</b> &amp; <i>K<u>ing</u></i>", "HTML", None)
    assert formatted.text == "🂡 Ace & King"
    assert formatted.entities == [
        {"type": "bold", "offset": 3, "length": 3},  # the card emoji counts two units
        {"type": "italic", "offset": 9, "length": 4},
        {"type": "underline", "offset": 10, "length": 3},
    ]


def test_links_spoilers_and_code_blocks() -> None:
    formatted = format_text(
        '<a href="https://t.me/x">go</a> <span class="tg-spoiler">s</span> '
        '<pre><code class="language-python">p</code></pre>',
        "html",
        None,
    )
    types = [(e["type"], e.get("url"), e.get("language")) for e in formatted.entities]
    assert types == [
        ("text_link", "https://t.me/x", None),
        ("spoiler", None, None),
        ("pre", None, "python"),
    ]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("<p>x</p>", 'Unsupported start tag "p" at byte offset 0'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("a < b > c", 'Unsupported start tag "" at byte offset 2'),
        ("a < b", "Can't find end of the tag at byte offset 2"),
    ],
)
def test_bad_html_is_refused_as_the_server_does(source: str, reason: str) -> None:
    with pytest.raises(ApiError) as refused:
        format_text(source, "HTML", None)
    assert refused.value.description == f"Bad Request: can't parse entities: {reason}"


def test_limit_counts_the_text_after_parsing() -> None:
    assert len(format_text(f"<b>{'x' * 4096}</b>", "HTML", None).text) == 4096
    with pytest.raises(ApiError, match="message is too long"):
        format_text(f"<b>{'x' * 4097}</b>", "HTML", None)
    with pytest.raises(ApiError, match="message caption is too long"):
        format_text("y" * 1025, None, None, caption=True)


def test_empty_and_whitespace_text_is_refused_and_edges_are_trimmed() -> None:
    for text in ("", "  \n", "<b> </b>"):
        with pytest.raises(ApiError, match="message text is empty"):
            format_text(text, "HTML", None)
    assert format_text("\n <b> hi</b> \n", "HTML", None) == FormattedText(
        "hi", [{"type": "bold", "offset": 0, "length": 2}]
    )


def test_other_parse_modes_are_not_modelled() -> None:
    with pytest.raises(ApiError, match="models HTML only"):
        format_text("*x*", "MarkdownV2", None)


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1).map(str.strip).filter(bool))
def test_escaped_text_round_trips_as_one_bold_entity(text: str) -> None:
    formatted = format_text(f"<b>{html.escape(text)}</b>", "HTML", None)
    assert formatted.text == text
    assert formatted.entities == [{"type": "bold", "offset": 0, "length": utf16_len(text)}]


def test_commands_in_user_text_get_bot_command_entities() -> None:
    assert user_text("/bid@cardtable_test_bot 7S then /pass, not a/b").entities == [
        {"type": "bot_command", "offset": 0, "length": 23},
        {"type": "bot_command", "offset": 32, "length": 5},
    ]
