"""The fake server's Bot API, driven by a plain PTB Bot through its real HTTP stack."""

import asyncio
import io
from datetime import timedelta

import pytest
from PIL import Image
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    RetryAfter,
)

from tests.fakebot import ApiError, FakeTelegram, FloodLimits, Limit

pytestmark = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"  # raised inside PTB
)
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="t1:v1:join")]])


async def test_get_me_unknown_methods_and_bad_tokens(tg: FakeTelegram, bot: Bot) -> None:
    assert (bot.id, bot.username, bot.can_read_all_group_messages) == (
        123456789,
        "cardtable_test_bot",
        False,
    )
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("frobnicate")
    for token in ("123456789:not-the-token", "malformed"):
        with pytest.raises(InvalidToken):
            async with Bot(token, base_url=tg.base_url):
                pass
    assert [(c.method, c.status) for c in tg.calls[-3:]] == [
        ("frobnicate", 404),
        ("getMe", 401),
        ("getMe", 404),
    ]


async def test_a_private_chat_needs_start_and_no_block(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(alice.id, "your hand")
    tg.press_start(alice)
    await bot.send_message(alice.id, "your hand")
    tg.block(alice)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(alice.id, "your turn")
    tg.press_start(alice)  # Restart unblocks
    await bot.send_message(alice.id, "your turn")
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(424242, "nobody")
    kinds = [next(k for k in u.to_dict() if k != "update_id") for u in await bot.get_updates()]
    assert kinds == ["message", "my_chat_member", "my_chat_member", "message"]
    assert [m.text for m in tg.messages(alice)] == ["/start", "your hand", "/start", "your turn"]


async def test_kicked_left_and_rejoined_groups(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("Table", [alice, bob])
    supergroup = tg.add_group("Club", [alice], supergroup=True)
    tg.remove_bot(group, by=alice)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(group.id, "hello")
    await bot.leave_chat(supergroup.id)
    with pytest.raises(Forbidden, match="bot is not a member of the supergroup chat"):
        await bot.send_message(supergroup.id, "hello")
    tg.add_bot(group, by=bob)
    await bot.send_message(group.id, "back")
    updates = await bot.get_updates()
    statuses = [
        (u.my_chat_member.old_chat_member.status, u.my_chat_member.new_chat_member.status)
        for u in updates
        if u.my_chat_member
    ]
    assert statuses == [("member", "kicked"), ("member", "left"), ("kicked", "member")]
    assert updates[-1].message.new_chat_members[0].id == bot.id
    assert updates[-1].message.from_user.id == bob.id


async def test_migration_to_supergroup(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    table = await bot.send_message(group.id, "table")
    supergroup = tg.migrate(group)
    with pytest.raises(ChatMigrated) as migrated:
        await bot.edit_message_text("table v2", group.id, table.message_id)
    assert migrated.value.new_chat_id == supergroup.id
    assert str(supergroup.id).startswith("-100")
    updates = await bot.get_updates()
    assert [(u.message.chat.id, u.message.migrate_from_chat_id) for u in updates[:1]] == [
        (supergroup.id, group.id)
    ]
    assert updates[1].message.migrate_to_chat_id == supergroup.id
    moved = await bot.send_message(supergroup.id, "table")
    assert moved.message_id == 2  # a supergroup numbers its own messages
    assert tg.private_chat(alice) is not supergroup and supergroup.present(alice)


async def test_get_updates_offset_limit_and_allowed_updates(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    for n in range(3):
        tg.press_start(alice, f"p{n}")
    first = await bot.get_updates(limit=2)
    assert [u.message.text for u in first] == ["/start p0", "/start p1"]
    again = await bot.get_updates(offset=first[1].update_id)  # confirms only p0
    assert [u.message.text for u in again] == ["/start p1", "/start p2"]
    assert [u.message.text for u in await bot.get_updates(offset=-1)] == ["/start p2"]
    await bot.get_updates(offset=again[-1].update_id + 1, allowed_updates=["callback_query"])
    tg.press_start(alice, "ignored")  # filtered when created
    assert await bot.get_updates() == ()
    await bot.get_updates(allowed_updates=[])  # back to the default
    tg.press_start(alice, "kept")
    assert [u.message.text for u in await bot.get_updates()] == ["/start kept"]


async def test_long_poll_wakes_up_and_a_second_poller_conflicts(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    poll = asyncio.create_task(bot.get_updates(timeout=timedelta(seconds=20)))
    await asyncio.sleep(0.1)
    assert not poll.done()
    tg.press_start(alice)
    (update,) = await asyncio.wait_for(poll, 2)
    assert update.message.text == "/start"
    first = asyncio.create_task(
        bot.get_updates(offset=update.update_id + 1, timeout=timedelta(seconds=20))
    )
    await asyncio.sleep(0.1)
    async with Bot(tg.token, base_url=tg.base_url) as second_instance:
        assert await second_instance.get_updates(offset=update.update_id + 1) == ()
    with pytest.raises(Conflict, match="terminated by other getUpdates request"):
        await asyncio.wait_for(first, 2)


async def test_edits_not_modified_and_keyboard_removal(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    sent = await bot.send_message(
        group.id, "<b>Lobby</b>", parse_mode=ParseMode.HTML, reply_markup=KEYBOARD
    )
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_text(
            "<b>Lobby</b>",
            group.id,
            sent.message_id,
            parse_mode=ParseMode.HTML,
            reply_markup=KEYBOARD,
        )
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=KEYBOARD)
    plain = await bot.edit_message_text("Lobby", group.id, sent.message_id, reply_markup=KEYBOARD)
    assert plain.text == "Lobby" and plain.edit_date is not None  # the bold entity went
    await bot.edit_message_text("Lobby", group.id, sent.message_id)  # drops the keyboard
    message = tg.last_message(group)
    assert message.buttons == [] and [r.reply_markup is None for r in message.revisions] == [
        False,
        False,
        True,
    ]
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(group.id, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("x", group.id, 999)
    own = tg.send(alice, group, "/score")
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await bot.edit_message_text("x", group.id, own.message_id)
    with pytest.raises(BadRequest, match="There is no caption in the message to edit"):
        await bot.edit_message_caption(group.id, sent.message_id, caption="x")


async def test_keyboard_limits_reach_the_bot_as_bad_request(tg: FakeTelegram, bot: Bot) -> None:
    tg.press_start(alice := tg.add_user("Alice"))
    long_data = "t1:v1:play:" + "ж" * 27  # 65 bytes
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(
            alice.id,
            "hand",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Q♥", callback_data=long_data)]]
            ),
        )
    row = [InlineKeyboardButton(str(n), callback_data=str(n)) for n in range(9)]
    with pytest.raises(BadRequest, match="Reply markup is too long"):
        await bot.send_message(alice.id, "hand", reply_markup=InlineKeyboardMarkup([row]))
    assert tg.messages(alice)[-1].text == "/start"  # nothing was sent


async def test_text_length_counts_after_html_parsing(tg: FakeTelegram, bot: Bot) -> None:
    tg.press_start(alice := tg.add_user("Alice"))
    sent = await bot.send_message(alice.id, "<i>" + "♠" * 4096 + "</i>", parse_mode="HTML")
    assert len(sent.text) == 4096 and sent.entities[0].length == 4096
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(alice.id, "<i>" + "♠" * 4097 + "</i>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_message(alice.id, "7 < 8", parse_mode="HTML")


async def test_callback_answers_once_in_time_with_start_links_only(
    tg: FakeTelegram, bot: Bot
) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    table = await bot.send_message(group.id, "table", reply_markup=KEYBOARD)
    message = tg.last_message(group)
    query = tg.press_nowait(alice, message, text="Join")
    with pytest.raises(BadRequest, match="Message_too_long"):
        await bot.answer_callback_query(query.id, "x" * 201)
    with pytest.raises(BadRequest, match="Url_invalid"):
        await bot.answer_callback_query(query.id, url="https://example.com/")
    link = f"https://t.me/{bot.username}?start=join_t1"
    await bot.answer_callback_query(query.id, "Open the bot", url=link)
    assert (await tg.answer_to(query)).url == link
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(query.id, "again")
    late = tg.press_nowait(alice, message, data="t1:v1:join")
    tg.advance(16)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(late.id)
    updates = await bot.get_updates()
    assert [u.callback_query.message.message_id for u in updates] == [table.message_id] * 2
    tg.follow(alice, link)
    assert tg.messages(alice)[-1].text == "/start join_t1"
    with pytest.raises(LookupError):
        tg.press_nowait(alice, message, text="Leave")


async def test_deleting_messages_and_the_48_hour_rule(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    first = await bot.send_message(group.id, "old table")
    second = await bot.send_message(group.id, "new table")
    assert await bot.delete_message(group.id, first.message_id)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(group.id, first.message_id)
    with pytest.raises(BadRequest, match="Message can't be deleted"):
        await bot.delete_message(group.id, tg.send(alice, group, "/help").message_id)
    tg.advance(48 * 3600 + 1)
    with pytest.raises(BadRequest, match="Message can't be deleted for everyone"):
        await bot.delete_message(group.id, second.message_id)
    await bot.edit_message_text("still editable", group.id, second.message_id)
    assert [m.text for m in tg.messages(group)] == ["still editable", "/help"]
    assert "old table" in tg.texts(group)  # it was shown once


async def test_documents_and_photos_keep_their_bytes(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    record = b'{"game": "preferans"}'
    sent = await bot.send_document(
        group.id, record, filename="game.json", caption="<b>Export</b>", parse_mode="HTML"
    )
    assert (sent.document.file_name, sent.caption, sent.caption_entities[0].type) == (
        "game.json",
        "Export",
        "bold",
    )
    assert tg.last_message(group).file.data == record
    downloaded = await (await bot.get_file(sent.document.file_id)).download_as_bytearray()
    assert bytes(downloaded) == record
    again = await bot.send_document(group.id, sent.document.file_id)
    assert again.document.file_unique_id == sent.document.file_unique_id
    png = io.BytesIO()
    Image.new("RGB", (64, 32), "green").save(png, format="PNG")
    photo = await bot.send_photo(group.id, png.getvalue(), caption="scores")
    assert (photo.photo[-1].width, photo.photo[-1].height) == (64, 32)
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.send_photo(group.id, b"not an image")
    with pytest.raises(BadRequest, match="Wrong file identifier"):
        await bot.send_document(group.id, "no-such-file-id")


async def test_commands_per_scope_and_language(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice", language_code="ru")
    bob = tg.add_user("Bob", language_code="en")
    group = tg.add_group("Table", [alice, bob])
    private = [BotCommand("start", "Start"), BotCommand("help", "Help")]
    await bot.set_my_commands(private, scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands(
        [BotCommand("newgame", "New table")], scope=BotCommandScopeAllGroupChats()
    )
    await bot.set_my_commands(
        [BotCommand("newgame", "Новый стол")],
        scope=BotCommandScopeAllGroupChats(),
        language_code="ru",
    )
    assert await bot.get_my_commands(scope=BotCommandScopeAllPrivateChats()) == tuple(private)
    assert await bot.get_my_commands() == ()
    assert tg.command_menu(alice, group)[0]["description"] == "Новый стол"
    assert tg.command_menu(bob, group)[0]["description"] == "New table"
    assert [c["command"] for c in tg.command_menu(bob, bob)] == ["start", "help"]
    await bot.set_my_commands([BotCommand("score", "Score")], scope=BotCommandScopeChat(group.id))
    assert [c["command"] for c in tg.command_menu(alice, group)] == ["score"]
    await bot.delete_my_commands(scope=BotCommandScopeChat(group.id))
    assert tg.commands({"type": "chat", "chat_id": group.id}) == []
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([BotCommand("New-Game", "x")])


async def test_chat_and_member_lookups(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice", username="alice"), tg.add_user("Bob")
    group = tg.add_group("Table", [alice])
    chat = await bot.get_chat(group.id)
    assert (chat.title, chat.type) == ("Table", "group")
    assert (await bot.get_chat(alice.id)).username == "alice"
    assert (await bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, bob.id)).status == "left"
    assert (await bot.get_chat_member(group.id, bot.id)).status == "member"
    with pytest.raises(BadRequest, match="User not found"):
        await bot.get_chat_member(group.id, 5)


async def test_flood_limits_answer_429_with_retry_after(bot: Bot) -> None:
    limits = FloodLimits(private_chat=Limit(3, 3.0), group_chat=Limit(4, 60.0))
    async with FakeTelegram(flood=limits) as tg, Bot(tg.token, base_url=tg.base_url) as limited:
        alice = tg.add_user("Alice")
        tg.press_start(alice)
        group = tg.add_group("Table", [alice])
        for n in range(3):
            await limited.send_message(alice.id, f"note {n}")
        with pytest.raises(RetryAfter, match=r"Retry in [1-3] seconds"):
            await limited.send_message(alice.id, "one too many")
        table = await limited.send_message(group.id, "table")
        for n in range(3):
            await limited.edit_message_text(f"table v{n}", group.id, table.message_id)
        with pytest.raises(RetryAfter, match=r"Retry in (59|60) seconds"):
            await limited.edit_message_text("table v3", group.id, table.message_id)
        assert [c.status for c in tg.calls_for("editMessageText", group)] == [200] * 3 + [429]
        tg.advance(60)  # the windows pass
        await limited.edit_message_text("table v3", group.id, table.message_id)


async def test_forced_errors_match_method_and_chat(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    tg.press_start(alice)
    tg.press_start(bob)
    tg.force_retry_after(7, method="sendMessage", chat=bob, times=2)
    tg.force_error(ApiError(502, "Bad Gateway"), method="getChat")
    await bot.send_message(alice.id, "fine")
    for _ in range(2):
        with pytest.raises(RetryAfter, match="Retry in 7 seconds"):
            await bot.send_message(bob.id, "flooded")
    await bot.send_message(bob.id, "fine now")
    with pytest.raises(Exception, match="Bad Gateway"):
        await bot.get_chat(alice.id)


async def test_webhook_excludes_polling_and_reports_its_state(tg: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(BadRequest, match="an https url must be provided"):
        await bot.set_webhook("http://bot.example.com/hook")
    await bot.set_webhook("https://bot.example.com/hook", secret_token="s3cret")
    with pytest.raises(Conflict, match="webhook is active"):
        await bot.get_updates()
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count) == ("https://bot.example.com/hook", 0)
    await bot.delete_webhook()
    assert (await bot.get_webhook_info()).url == ""
