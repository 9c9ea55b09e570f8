"""The bot itself, chats, members and files."""

from __future__ import annotations

from typing import Any

from tests.fakebot.errors import bad_request
from tests.fakebot.model import MemberStatus, member_api
from tests.fakebot.params import Params
from tests.fakebot.registry import method
from tests.fakebot.world import World


@method("getMe")
async def get_me(world: World, p: Params) -> Any:
    return {
        **world.bot.api(),
        "can_join_groups": True,
        "can_read_all_group_messages": not world.privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


@method("getChat")
async def get_chat(world: World, p: Params) -> Any:
    return world.chat(p.get("chat_id"), write=False).full_api()


@method("getChatMember")
async def get_chat_member(world: World, p: Params) -> Any:
    chat = world.chat(p.get("chat_id"), write=False)
    user_id = p.get("user_id")
    if user_id == world.bot.id:
        return member_api(world.bot, chat.bot_status)
    user = world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    status: MemberStatus
    if chat.user is not None:
        status = "member" if chat.user is user else "left"
    else:
        status = chat.members.get(user, "left")
    return member_api(user, status)


@method("leaveChat")
async def leave_chat(world: World, p: Params) -> Any:
    chat = world.chat(p.get("chat_id"), write=False)
    if not chat.is_group:
        raise bad_request("chat member status can't be changed in private chats")
    world.my_chat_member(chat, world.bot, "left")
    return True


@method("getFile")
async def get_file(world: World, p: Params) -> Any:
    stored = world.files.get(p.text("file_id") or "")
    if stored is None:
        raise bad_request("wrong file_id or the file is temporarily unavailable")
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data),
        "file_path": stored.file_path,
    }


@method("close")
async def close(world: World, p: Params) -> Any:
    return True


@method("logOut")
async def log_out(world: World, p: Params) -> Any:
    return True
