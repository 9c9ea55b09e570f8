"""The bot's command menus, per scope and language."""

from __future__ import annotations

import re
from typing import Any

from tests.fakebot.errors import bad_request
from tests.fakebot.model import Chat, User
from tests.fakebot.params import Params
from tests.fakebot.registry import method
from tests.fakebot.world import World

MAX_COMMANDS = 100
MAX_DESCRIPTION = 256
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_CHAT_SCOPES = ("chat", "chat_administrators", "chat_member")
SCOPES = ("default", "all_private_chats", "all_group_chats", "all_chat_administrators",
          *_CHAT_SCOPES)  # fmt: skip

CommandKey = tuple[tuple[Any, ...], str]


def scope_key(world: World, scope: Any) -> tuple[Any, ...]:
    """A BotCommandScope as a key: (type,) or (type, chat id[, user id])."""
    scope = scope or {"type": "default"}
    kind = scope.get("type") if isinstance(scope, dict) else None
    if kind not in SCOPES:
        raise bad_request("can't parse BotCommandScope: unsupported type")
    if kind not in _CHAT_SCOPES:
        return (kind,)
    chat = world.chat(scope.get("chat_id"), write=False)
    if kind != "chat_member":
        return (kind, chat.id)
    if scope.get("user_id") not in world.users:
        raise bad_request("user not found")
    return (kind, chat.id, scope["user_id"])


def _key(world: World, p: Params) -> CommandKey:
    language = p.text("language_code") or ""
    if language and not re.fullmatch(r"[a-z]{2}", language):
        raise bad_request("LANG_CODE_INVALID")
    return scope_key(world, p.get("scope")), language


@method("setMyCommands")
async def set_my_commands(world: World, p: Params) -> Any:
    commands = p.get("commands")
    if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
        raise bad_request("can't parse commands JSON object")
    for command in commands:
        if not isinstance(command, dict):
            raise bad_request("can't parse BotCommand JSON object")
        name, description = command.get("command", ""), command.get("description", "")
        if not _COMMAND.fullmatch(name):
            raise bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(description) <= MAX_DESCRIPTION:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
    key = _key(world, p)
    if commands:
        world.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
    else:
        world.commands.pop(key, None)
    return True


@method("getMyCommands")
async def get_my_commands(world: World, p: Params) -> Any:
    return world.commands.get(_key(world, p), [])


@method("deleteMyCommands")
async def delete_my_commands(world: World, p: Params) -> Any:
    world.commands.pop(_key(world, p), None)
    return True


def command_menu(world: World, user: User, chat: Chat) -> list[dict[str, str]]:
    """The menu a user sees in a chat: the Bot API's scope resolution order."""
    if chat.is_group:
        admin = chat.members.get(user) in ("creator", "administrator")
        scopes: list[tuple[Any, ...]] = [("chat_member", chat.id, user.id)]
        scopes += [("chat_administrators", chat.id)] if admin else []
        scopes += [("chat", chat.id)]
        scopes += [("all_chat_administrators",)] if admin else []
        scopes += [("all_group_chats",), ("default",)]
    else:
        scopes = [("chat", chat.id), ("all_private_chats",), ("default",)]
    language = user.language_code or ""
    for scope in scopes:
        for key in ((scope, language), (scope, "")):
            if key in world.commands:
                return world.commands[key]
    return []
