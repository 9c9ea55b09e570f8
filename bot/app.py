"""Building the python-telegram-bot Application: storage, hub, handlers, commands menu."""

from __future__ import annotations

import logging

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder

from bot import handlers
from bot.config import Settings
from bot.hub import Hub
from bot.i18n import languages, translator
from storage.store import Storage

log = logging.getLogger(__name__)

GROUP_COMMANDS = (
    ("newgame", "open a table"),
    ("score", "the scoresheet and balances"),
    ("history", "the last deals"),
    ("rules", "the table's rules"),
    ("leave", "leave, or end the game by agreement"),
    ("abort", "abandon the game by agreement"),
    ("export", "the game record as a file"),
    ("sheet", "the scoresheet as a picture"),
    ("stats", "a player's statistics"),
    ("top", "the group's best players"),
    ("language", "the language of this group"),
    ("timer", "turn time, reminders, what a timeout does"),
    ("pause", "pause the game by agreement"),
    ("resume", "go on with a paused game"),
    ("replace", "seat a new player for an absent one"),
    ("quiet", "quiet hours of this group"),
    ("deal", "enter a deal of a scorekept game"),
    ("undo", "remove the last entered deal"),
    ("edit", "correct an entered deal"),
    ("add", "seat a player by name (scorekeeping)"),
    ("settle", "settle a paper Preferans sheet"),
    ("help", "what I can do"),
)
PRIVATE_COMMANDS = (
    ("start", "show my cards again"),
    ("score", "the score of my table"),
    ("sheet", "the scoresheet of my table"),
    ("stats", "my statistics"),
    ("language", "the language I write to you in"),
    ("settle", "settle a paper Preferans sheet"),
    ("help", "what I can do"),
)


def build_application(settings: Settings) -> Application:
    app = (
        ApplicationBuilder()
        .token(settings.token)
        .base_url(settings.api_base_url)
        .base_file_url(settings.api_base_file_url)
        # Groups are budgeted by the outbox (a stricter sliding window); 429s are handled there.
        .rate_limiter(AIORateLimiter(group_max_rate=0, max_retries=0))
        .concurrent_updates(True)
        .post_init(start_hub)
        .post_shutdown(stop_hub)
        .build()
    )
    app.bot_data["settings"] = settings
    handlers.install(app)
    return app


async def start_hub(app: Application) -> Hub:
    """Open storage, restore every open table and register the command menus."""
    settings: Settings = app.bot_data["settings"]
    storage = await Storage.open(settings.database_path)
    me = await app.bot.get_me()
    hub = Hub(storage, app.bot, me.username or "", group_limit=settings.group_limit,
              overall_limit=settings.overall_limit, job_queue=app.job_queue)
    app.bot_data["hub"] = hub
    await _register_commands(app)
    problems = await hub.restore()
    for problem in problems:
        log.error("needs attention: %s", problem)
    log.info("@%s is up: %d open tables restored", me.username, len(hub.tables))
    return hub


async def _register_commands(app: Application) -> None:
    for language in languages():
        tr = translator(language)
        code = None if language == "en" else language
        for scope, items in ((BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
                             (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS)):
            await app.bot.set_my_commands([BotCommand(c, tr(d)) for c, d in items],
                                          scope=scope, language_code=code)


async def stop_hub(app: Application) -> None:
    hub: Hub | None = app.bot_data.get("hub")
    if hub is not None:
        await hub.outbox.drain()
        await hub.storage.close()
