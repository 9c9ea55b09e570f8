"""The scorekeeper's commands: /add, /deal, /undo, /edit, and /settle for a paper sheet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape

from telegram import Update

from bot.games import PLUGINS
from bot.screens.look import plugin_of
from bot.service import loading
from bot.service.outcome import Outcome
from bot.service.scorekeeping import corrections, entering
from bot.service.scorekeeping import lobby as keeping
from bot.service.tables import Table
from bot.telegram.common import (
    after_command,
    chat_translator,
    in_group,
    reply,
    say,
    thread_of,
)
from bot.telegram.context import Context
from bot.ui.i18n import Translate
from storage.rows import UserRow

REPLY_LIMIT = 3500  # characters of /add's reply (Telegram takes 4096 at most)

# what a table command does: (context, table, user, the text after the command) -> outcome
Action = Callable[[Context, Table, UserRow, str], Awaitable[Outcome]]


async def _table_command(update: Update, context: Context, action: Action, *,
                         finished_too: bool = False) -> None:
    """Run a scorekeeper command on the topic's table, under its lock; ``finished_too``: or
    on the chat's last game if it is finished (a correction)."""
    cmd = await in_group(update, context)
    if cmd is None:
        return
    tr, user, svc = cmd.tr, cmd.user, context.services
    if finished_too:
        found: Table | Outcome = await corrections.table_to_correct(svc, cmd.chat_id,
                                                                    cmd.thread_id)
    else:
        found = await loading.topic_table(svc, cmd.chat_id, cmd.thread_id) or Outcome().refuse(
            "no_table_open")
    if isinstance(found, Outcome):
        await say(update, context, found, tr)
        return
    async with found.lock:
        if not found.keeps_score and not finished_too:
            out = Outcome().refuse("deals_cards")
        else:
            out = await action(context, found, user, after_command(update))
    await _told(update, context, found, out, tr)


async def _told(update: Update, context: Context, table: Table, out: Outcome,
                tr: Translate) -> None:
    if out.note == "added":  # /add: who was seated, and why the others were not
        context.services.publish(out)
        await reply(update, context, _added(out, tr))
        return
    await say(update, context, out, tr, names=table.names)


def _added(out: Outcome, tr: Translate) -> str:
    """Who was seated and why the others were not, within a message's length: the problems
    past ``REPLY_LIMIT`` characters are counted, not listed."""
    names, problems = out.note_params["names"], out.note_params["problems"]
    lines = [tr("Added: {names}", names=", ".join(escape(n) for n in names))] if names else []
    size = sum(len(line) + 1 for line in lines)
    for told, (problem, name) in enumerate(problems):
        line = {
            "name_empty": tr("A name with nothing visible in it cannot be added."),
            "name_too_long": tr("{name}: a name has at most {n} characters.",
                                name=escape(name[:20]) + "…", n=out.note_params["limit"]),
            "name_taken": tr("{name} is already at the table.", name=escape(name)),
            "name_start": tr("{name}: a name cannot start with a digit, # or -.",
                             name=escape(name)),
            "table_full_for": tr("{name}: the table is full.", name=escape(name)),
        }[problem]
        if size + len(line) > REPLY_LIMIT:
            left = len(problems) - told
            lines.append(tr("…and {n} more name not added.", "…and {n} more names not added.",
                            n=left))
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


async def _add(context: Context, table: Table, user: UserRow, text: str) -> Outcome:
    return await keeping.add_names(context.services, table, user, text)


async def _deal(context: Context, table: Table, user: UserRow, text: str) -> Outcome:
    return await entering.deal_command(context.services, table, user, text,
                                       plugin_of(table).entry)


async def _undo(context: Context, table: Table, user: UserRow, text: str) -> Outcome:
    return await corrections.undo_command(context.services, table, user)


async def _edit(context: Context, table: Table, user: UserRow, text: str) -> Outcome:
    return await corrections.edit_command(context.services, table, user, text,
                                          plugin_of(table).entry)


async def on_add(update: Update, context: Context) -> None:
    await _table_command(update, context, _add)


async def on_deal(update: Update, context: Context) -> None:
    """/deal alone shows the one-line form of the table's game; with a deal, enters it."""
    if not after_command(update).strip():
        tr = await chat_translator(update, context)
        chat = update.effective_chat
        table = None if chat is None else await loading.topic_table(
            context.services, chat.id, thread_of(update.effective_message))
        if table is not None and table.keeps_score:
            await reply(update, context, plugin_of(table).entry.text_help(tr))
            return
    await _table_command(update, context, _deal)


async def on_undo(update: Update, context: Context) -> None:
    await _table_command(update, context, _undo, finished_too=True)


async def on_edit(update: Update, context: Context) -> None:
    await _table_command(update, context, _edit, finished_too=True)


async def on_settle(update: Update, context: Context) -> None:
    """Any chat: settle a pasted paper sheet (of the game that has one)."""
    tr = await chat_translator(update, context)
    settle = next(p.settle_text for p in PLUGINS.values() if p.settle_text is not None)
    await reply(update, context, settle(after_command(update), tr))
