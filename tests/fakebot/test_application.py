"""A real PTB Application (polling or webhook, AIORateLimiter) against the fake server."""

import json

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.fakebot import FakeTelegram
from tests.fakebot.ptb import application_builder, running

pytestmark = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"  # raised inside PTB
)
LOBBY = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="t1:v1:join")]])


class TinyTableBot:
    """Just enough of a game bot to exercise the server: a lobby with a Join button,
    hands sent privately, an export, and a record of what reached it."""

    def __init__(self, tg: FakeTelegram, *, max_retries: int = 0) -> None:
        self.seen: list[str] = []
        self.errors: list[Exception] = []
        self.app = (
            application_builder(tg).rate_limiter(AIORateLimiter(max_retries=max_retries)).build()
        )
        self.app.add_handler(CommandHandler("newgame", self.new_game))
        self.app.add_handler(CommandHandler("start", self.start))
        self.app.add_handler(CommandHandler("export", self.export))
        self.app.add_handler(CallbackQueryHandler(self.join))
        self.app.add_handler(MessageHandler(filters.ALL, self.other))
        self.app.add_error_handler(self.error)

    async def new_game(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        self.seen.append(update.message.text or "")
        await update.message.reply_text(
            "<b>Preferans</b> table: 0/3", parse_mode="HTML", reply_markup=LOBBY, do_quote=True
        )

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        self.seen.append(update.message.text or "")
        if context.args:
            await update.message.reply_text(f"Seated at {context.args[0]}. Your hand: A♠ K♠")

    async def export(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        record = json.dumps({"game": "preferans", "deals": []}).encode()
        await update.effective_chat.send_document(record, filename="game.json")

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        self.seen.append(query.data or "")
        try:
            await context.bot.send_message(query.from_user.id, "Your hand: A♠ K♠")
        except Forbidden:
            link = f"https://t.me/{context.bot.username}?start=t1"
            await query.answer(url=link)
            return
        await query.answer("Joined")
        await query.edit_message_text(f"Preferans table: 1/3 ({query.from_user.first_name})")

    async def other(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None
        self.seen.append(
            message.text
            or f"migrate_to={message.migrate_to_chat_id}"
            f" migrate_from={message.migrate_from_chat_id}"
        )

    async def error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.error is not None
        self.errors.append(context.error)


async def test_commands_and_privacy_mode(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    bot = TinyTableBot(tg)
    async with running(tg, bot.app):
        tg.send(alice, group, "/newgame")
        tg.send(alice, group, "/newgame@cardtable_test_bot sochi")
        tg.send(alice, group, "/newgame@some_other_bot")  # not for this bot
        tg.send(alice, group, "hello all")  # privacy mode: not delivered
        await tg.idle()
        tg.send(alice, group, "a reply", reply_to=tg.last_message(group))
        tg.press_start(alice, "t9")
        await tg.idle()
    assert bot.seen == ["/newgame", "/newgame@cardtable_test_bot sochi", "a reply", "/start t9"]
    assert [m.text for m in tg.messages(alice)][-1] == "Seated at t9. Your hand: A♠ K♠"
    lobby = next(m for m in tg.messages(group) if m.sender is tg.bot)
    assert lobby.reply_to is not None and lobby.reply_to.message_id == 1
    assert lobby.text == "Preferans table: 0/3"
    assert lobby.current.content.entities == [{"type": "bold", "offset": 0, "length": 9}]


async def test_button_round_trip_and_deep_link_for_a_new_player(tg: FakeTelegram) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("Table", [alice, bob])
    tg.press_start(alice)
    bot = TinyTableBot(tg)
    async with running(tg, bot.app):
        await tg.idle()
        tg.send(alice, group, "/newgame")
        await tg.idle()
        lobby = tg.last_message(group)
        answer = await tg.press(alice, lobby, text="Join")
        await tg.idle()
        assert (answer.text, answer.show_alert) == ("Joined", False)
        assert (lobby.text, lobby.buttons) == ("Preferans table: 1/3 (Alice)", [])
        assert tg.last_message(alice).text == "Your hand: A♠ K♠"
        refused = await tg.press(bob, lobby, data="t1:v1:join", forge=True)  # stale button
        assert refused.url == f"https://t.me/{tg.bot.username}?start=t1"
        tg.follow(bob, refused.url)
        await tg.idle()
    assert tg.last_message(bob).text == "Seated at t1. Your hand: A♠ K♠"
    assert "A♠ K♠" not in " ".join(tg.texts(group))
    assert [c.status for c in tg.calls_for("sendMessage", bob)] == [403, 200]


async def test_not_modified_reaches_the_error_handler(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice")
    tg.press_start(alice)
    group = tg.add_group("Table", [alice])
    bot = TinyTableBot(tg)
    async with running(tg, bot.app):
        tg.send(alice, group, "/newgame")
        await tg.idle()
        lobby = tg.last_message(group)
        for _ in range(2):  # the second press edits to the same text
            await tg.press(alice, lobby, data="t1:v1:join", forge=True)
            await tg.idle()
    assert len(lobby.revisions) == 2
    assert [type(e) for e in bot.errors] == [BadRequest]
    assert "Message is not modified" in str(bot.errors[0])


async def test_forced_429_is_waited_out_by_the_rate_limiter(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    retrying, giving_up = TinyTableBot(tg, max_retries=1), TinyTableBot(tg)
    tg.force_retry_after(1, method="sendMessage", chat=group)
    async with running(tg, retrying.app):
        tg.send(alice, group, "/newgame")
        await tg.idle()
    assert [c.status for c in tg.calls_for("sendMessage", group)] == [429, 200]
    assert retrying.errors == []
    tg.force_retry_after(1, method="sendMessage", chat=group)
    async with running(tg, giving_up.app):
        tg.send(alice, group, "/newgame")
        await tg.idle()
    assert [c.status for c in tg.calls_for("sendMessage", group)] == [429, 200, 429]
    assert [type(e) for e in giving_up.errors] == [RetryAfter]


async def test_migration_updates_and_chat_migrated(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    bot = TinyTableBot(tg)
    async with running(tg, bot.app):
        supergroup = tg.migrate(group)
        await tg.idle()
        with pytest.raises(ChatMigrated) as migrated:
            await bot.app.bot.send_message(group.id, "table")
        assert migrated.value.new_chat_id == supergroup.id
        tg.send(alice, supergroup, "/newgame")
        await tg.idle()
    assert bot.seen == [
        f"migrate_to=None migrate_from={group.id}",
        f"migrate_to={supergroup.id} migrate_from=None",
        "/newgame",
    ]
    assert tg.last_message(supergroup).text == "Preferans table: 0/3"


async def test_document_upload_keeps_the_bytes(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    bot = TinyTableBot(tg)
    async with running(tg, bot.app):
        tg.send(alice, group, "/export")
        await tg.idle()
    exported = tg.last_message(group)
    assert exported.file is not None and exported.file.file_name == "game.json"
    assert json.loads(exported.file.data) == {"game": "preferans", "deals": []}


async def test_webhook_delivery_with_secret_token(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    bot = TinyTableBot(tg)
    async with running(tg, bot.app, webhook_secret="s3cret-token"):
        assert tg.world.webhook.url.endswith("/hook")
        tg.send(alice, group, "/newgame")
        await tg.idle()
        assert tg.last_message(group).text == "Preferans table: 0/3"
        tg.world.webhook.secret_token = "wrong"  # PTB refuses the delivery with 403
        tg.send(alice, group, "/newgame again")
        with pytest.raises(AssertionError, match="1 updates not taken"):
            await tg.idle(timeout=0.5)
        assert "403" in (tg.world.webhook.last_error_message or "")
        tg.world.webhook.secret_token = "s3cret-token"  # the retry goes through
        await tg.idle()
    assert bot.seen == ["/newgame", "/newgame again"]
    assert not [c for c in tg.calls if c.method == "getUpdates"]
