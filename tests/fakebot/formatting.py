"""Message text as the server stores it: parse_mode parsing, entities, limits.

Entity offsets and lengths are in UTF-16 code units, as in the Bot API. Length
limits count characters of the text left after parsing. Only the HTML parse
mode is modelled: a game bot needs no other.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakebot.errors import bad_request

MAX_TEXT = 4096
MAX_CAPTION = 1024

_SIMPLE_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic",
    "u": "underline", "ins": "underline", "s": "strikethrough", "strike": "strikethrough",
    "del": "strikethrough", "tg-spoiler": "spoiler", "code": "code", "pre": "pre",
    "blockquote": "blockquote",
}  # fmt: skip
_TAG_START = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")
_ATTRIBUTE = re.compile(r"\s*([a-zA-Z-]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+))?")
_CHARACTER_REFERENCE = re.compile(r"&(lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);")
_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")  # date_time entity formats
_BOT_COMMAND = re.compile(r"(?<![\w/])/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?(?![\w/@])")


def _unescape(text: str) -> str:
    """Only the references the Bot API decodes; any other '&' stays as it is."""
    return _CHARACTER_REFERENCE.sub(lambda m: html.unescape(m.group()), text)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class FormattedText:
    """Plain text plus its entities, as a message holds them."""

    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)

    def api(self, text_key: str = "text", entities_key: str = "entities") -> dict[str, Any]:
        out: dict[str, Any] = {text_key: self.text}
        if self.entities:
            out[entities_key] = self.entities
        return out


@dataclass
class _OpenTag:
    name: str
    entity: dict[str, Any]
    start: int  # UTF-16 offset in the output


class _HtmlParser:
    """A strict parser following the Bot API's HTML style rules."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.out: list[str] = []
        self.length = 0  # UTF-16 units written so far
        self.stack: list[_OpenTag] = []
        self.entities: list[dict[str, Any]] = []

    def fail(self, reason: str) -> Exception:
        return bad_request(f"can't parse entities: {reason}")

    def byte_offset(self) -> int:
        return len(self.source[: self.pos].encode())

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.length += utf16_len(text)

    def parse(self) -> FormattedText:
        source = self.source
        while self.pos < len(source):
            lt = source.find("<", self.pos)
            end = len(source) if lt < 0 else lt
            if end > self.pos:
                self.emit(_unescape(source[self.pos : end]))
                self.pos = end
            if lt >= 0:
                self.tag()
        if self.stack:
            raise self.fail(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1].name}"'
            )
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return FormattedText("".join(self.out), self.entities)

    def tag(self) -> None:
        closing = self.source.startswith("</", self.pos)
        gt = self.source.find(">", self.pos)
        if gt < 0:
            raise self.fail(f"Can't find end of the tag at byte offset {self.byte_offset()}")
        if closing:
            self.end_tag(self.source[self.pos + 2 : gt].strip().lower())
        else:
            match = _TAG_START.match(self.source, self.pos)
            name = match.group(1).lower() if match else ""
            if not match or not self.start_tag(name, self.source[match.end() : gt]):
                raise self.fail(
                    f'Unsupported start tag "{name}" at byte offset {self.byte_offset()}'
                )
        self.pos = gt + 1

    def start_tag(self, name: str, attribute_text: str) -> bool:
        attributes = {
            key.lower(): _unescape(value.strip("\"'")) if value else ""
            for key, value in _ATTRIBUTE.findall(attribute_text)
        }
        entity: dict[str, Any]
        if name == "a":
            url = attributes.get("href", "")
            user = re.fullmatch(r"tg://user\?id=(\d+)", url)
            entity = (
                {"type": "text_mention", "user": {"id": int(user.group(1))}}
                if user
                else {"type": "text_link", "url": url}
            )
        elif name == "span":
            if attributes.get("class") != "tg-spoiler":
                return False
            entity = {"type": "spoiler"}
        elif name == "tg-time":
            unix, fmt = attributes.get("unix", ""), attributes.get("format", "")
            if not unix.isdigit() or not _TIME_FORMAT.fullmatch(fmt):
                return False
            entity = {"type": "date_time", "unix_time": int(unix), "date_time_format": fmt}
        elif name == "tg-emoji":
            entity = {"type": "custom_emoji", "custom_emoji_id": attributes.get("emoji-id", "")}
        elif name in _SIMPLE_TAGS:
            entity = {"type": _SIMPLE_TAGS[name]}
            if name == "blockquote" and "expandable" in attributes:
                entity["type"] = "expandable_blockquote"
            language = attributes.get("class", "").removeprefix("language-")
            if name == "code" and language and self.stack and self.stack[-1].name == "pre":
                self.stack[-1].entity["language"] = language
                entity = {}  # merged into the pre entity
        else:
            return False
        self.stack.append(_OpenTag(name, entity, self.length))
        return True

    def end_tag(self, name: str) -> None:
        if not self.stack:
            raise self.fail(f"Unexpected end tag at byte offset {self.byte_offset()}")
        top = self.stack.pop()
        if top.name != name:
            raise self.fail(
                f"Unmatched end tag at byte offset {self.byte_offset()}, "
                f'expected "</{top.name}>", found "</{name}>"'
            )
        if top.entity and self.length > top.start:
            self.entities.append(
                {**top.entity, "offset": top.start, "length": self.length - top.start}
            )


def _strip(formatted: FormattedText) -> FormattedText:
    """Trim surrounding whitespace as the server does, keeping entities in place."""
    text = formatted.text
    stripped = text.strip()
    if stripped == text:
        return formatted
    shift = utf16_len(text[: len(text) - len(text.lstrip())])
    limit = utf16_len(stripped)
    entities = []
    for entity in formatted.entities:
        start = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] + entity["length"] - shift, limit)
        if end > start:
            entities.append({**entity, "offset": start, "length": end - start})
    return FormattedText(stripped, entities)


def _checked_entities(entities: Any) -> list[dict[str, Any]]:
    """Explicit entities (no parse_mode): a list of objects with type, offset, length."""
    if entities is None:
        return []
    valid = isinstance(entities, list) and all(
        isinstance(e, dict)
        and isinstance(e.get("type"), str)
        and isinstance(e.get("offset"), int)
        and isinstance(e.get("length"), int)
        for e in entities
    )
    if not valid:
        raise bad_request("can't parse entities JSON object")
    return [dict(e) for e in entities]


def format_text(
    text: str | None,
    parse_mode: str | None,
    entities: list[dict[str, Any]] | None,
    *,
    caption: bool = False,
) -> FormattedText:
    """The stored form of a bot's text or caption; raises the server's 400s."""
    if not text:
        if caption:
            return FormattedText("")
        raise bad_request("message text is empty")
    mode = (parse_mode or "").lower()
    if mode == "html":
        formatted = _HtmlParser(text).parse()
    elif mode:
        raise bad_request(
            f"unsupported parse_mode {parse_mode!r} (the fake Bot API models HTML only)"
        )
    else:
        formatted = FormattedText(text, _checked_entities(entities))
    formatted = _strip(formatted)
    if not formatted.text and not caption:
        raise bad_request("message text is empty")
    limit = MAX_CAPTION if caption else MAX_TEXT
    if len(formatted.text) > limit:
        raise bad_request("message caption is too long" if caption else "message is too long")
    return formatted


def user_text(text: str) -> FormattedText:
    """A user's message as Telegram delivers it: bot_command entities marked."""
    entities = []
    for match in _BOT_COMMAND.finditer(text):
        entities.append(
            {
                "type": "bot_command",
                "offset": utf16_len(text[: match.start()]),
                "length": utf16_len(match.group()),
            }
        )
    return FormattedText(text, entities)
