"""Sending, editing and deleting messages."""

from __future__ import annotations

from typing import Any

from tests.fakebot.errors import bad_request
from tests.fakebot.formatting import FormattedText, format_text
from tests.fakebot.keyboards import check_reply_markup
from tests.fakebot.model import Chat, Message, StoredFile
from tests.fakebot.params import Params, UploadedFile
from tests.fakebot.registry import method
from tests.fakebot.world import DELETE_WINDOW, World


def _reply_target(world: World, chat: Chat, p: Params) -> Message | None:
    reply = p.get("reply_parameters")
    if not isinstance(reply, dict):
        reply = {}
    message_id = reply.get("message_id") or p.get("reply_to_message_id")
    if not message_id:
        return None
    target = world.message(chat, message_id)
    if target is None and not (
        reply.get("allow_sending_without_reply") or p.get("allow_sending_without_reply")
    ):
        raise bad_request("message to be replied not found")
    return target


def _content(world: World, p: Params, *, caption: bool) -> FormattedText:
    name = "caption" if caption else "text"
    entities = p.get("caption_entities" if caption else "entities")
    return world.resolve_mentions(
        format_text(p.text(name), p.text("parse_mode"), entities, caption=caption)
    )


def _input_file(world: World, p: Params, kind: str) -> StoredFile:
    source = p.file(kind)
    if source is None:
        raise bad_request(f"there is no {kind} in the request")
    if isinstance(source, UploadedFile):
        return world.store_file(source, kind)
    stored = world.files.get(source)
    if stored is None:
        if source.startswith(("http://", "https://")):
            raise bad_request("failed to get HTTP URL content")
        raise bad_request("wrong file identifier/HTTP URL specified")
    if stored.kind != kind:
        raise bad_request(f"can't use file of type {stored.kind.title()} as {kind.title()}")
    return stored


def _send(world: World, p: Params, file_kind: str | None) -> Any:
    """Post a new bot message: text, or a file (`file_kind`) with a caption."""
    chat = world.chat(p.get("chat_id"), write=True)
    file = _input_file(world, p, file_kind) if file_kind else None
    content = _content(world, p, caption=file is not None)
    reply_markup = check_reply_markup(p.get("reply_markup"))
    reply_to = _reply_target(world, chat, p)
    thread_id = world.topic(chat, p.get("message_thread_id"))
    if reply_to is not None and not thread_id:
        thread_id = reply_to.thread_id  # a reply stays in the topic of what it answers
    return world.post(chat, world.bot, content, reply_markup, file=file, reply_to=reply_to,
                      thread_id=thread_id).api()


@method("sendMessage")
async def send_message(world: World, p: Params) -> Any:
    return _send(world, p, None)


@method("sendDocument")
async def send_document(world: World, p: Params) -> Any:
    return _send(world, p, "document")


@method("sendPhoto")
async def send_photo(world: World, p: Params) -> Any:
    return _send(world, p, "photo")


def _editable(world: World, p: Params) -> Message:
    if "inline_message_id" in p.values:
        raise bad_request("MESSAGE_ID_INVALID")  # no inline mode here
    chat = world.chat(p.get("chat_id"), write=True)
    if p.get("message_id") is None:
        raise bad_request("message identifier is not specified")
    message = world.message(chat, p.get("message_id"))
    if message is None:
        raise bad_request("message to edit not found")
    if message.sender is not world.bot or message.service:
        raise bad_request("message can't be edited")
    return message


def _edit_markup(p: Params) -> dict[str, Any] | None:
    """Editing without reply_markup removes the keyboard."""
    return check_reply_markup(p.get("reply_markup"), inline_only=True)


def _edit_content(world: World, p: Params, *, caption: bool) -> Any:
    message = _editable(world, p)
    if caption != (message.file is not None):
        kind = "caption" if caption else "text"
        raise bad_request(f"there is no {kind} in the message to edit")
    world.edit(message, _content(world, p, caption=caption), _edit_markup(p))
    return message.api()


@method("editMessageText")
async def edit_message_text(world: World, p: Params) -> Any:
    return _edit_content(world, p, caption=False)


@method("editMessageCaption")
async def edit_message_caption(world: World, p: Params) -> Any:
    return _edit_content(world, p, caption=True)


@method("editMessageReplyMarkup")
async def edit_message_reply_markup(world: World, p: Params) -> Any:
    message = _editable(world, p)
    world.edit(message, message.current.content, _edit_markup(p))
    return message.api()


@method("deleteMessage")
async def delete_message(world: World, p: Params) -> Any:
    chat = world.chat(p.get("chat_id"), write=False)
    message = world.message(chat, p.get("message_id"))
    if message is None:
        raise bad_request("message to delete not found")
    admin = chat.bot_status == "administrator"
    if chat.is_group and message.sender is not world.bot and not admin:
        raise bad_request("message can't be deleted")
    too_old = world.now() - message.date > DELETE_WINDOW
    if too_old and not (admin and chat.type == "supergroup"):
        raise bad_request("message can't be deleted for everyone")
    message.deleted = True
    return True


@method("pinChatMessage")
async def pin_chat_message(world: World, p: Params) -> Any:
    chat = world.chat(p.get("chat_id"), write=True)
    message = world.message(chat, p.get("message_id"))
    if message is None:
        raise bad_request("message to pin not found")
    if chat.is_group and chat.bot_status != "administrator":
        raise bad_request("not enough rights to manage pinned messages in the chat")
    chat.pinned = [m for m in chat.pinned if m != message.message_id] + [message.message_id]
    return True


@method("unpinChatMessage")
async def unpin_chat_message(world: World, p: Params) -> Any:
    chat = world.chat(p.get("chat_id"), write=True)
    if chat.is_group and chat.bot_status != "administrator":
        raise bad_request("not enough rights to manage pinned messages in the chat")
    message_id = p.get("message_id") or (chat.pinned[-1] if chat.pinned else None)
    chat.pinned = [m for m in chat.pinned if m != message_id]
    return True
