"""Chat commands: /score, /history, /rules, /help, /leave, /abort, /export, and votes."""

from __future__ import annotations

import io
import json
import logging
from html import escape
from typing import TYPE_CHECKING

from telegram import InputFile

from bot.answers import Answer
from bot.games.registry import GAME_UIS
from bot.i18n import Translate
from bot.lobby import press
from bot.render.screen import Screen
from bot.table_votes import ask
from bot.tables import Table
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)


def help_text(tr: Translate, *, private: bool) -> str:
    lines = [tr("<b>Card table</b>: Preferans, Seep and Joker, with the scoresheet kept for "
                "you."), ""]
    if private:
        lines.append(tr("Add me to a group and send /newgame there. Your cards and your "
                        "buttons come here, in this private chat."))
        lines.append("")
    lines += [
        tr("/newgame — open a table in this group: /pref Preferans, /seep Seep, "
           "/joker Joker"),
        tr("/score — the scoresheet and each player's balance as if settled now"),
        tr("/history — the last deals"),
        tr("/rules — the table's rules"),
        tr("/leave — leave the lobby, or ask the others to end the game now"),
        tr("/abort — ask the others to abandon the game"),
        tr("/export — the game record as a JSON file"),
        tr("/sheet — the scoresheet as a picture"),
        tr("/stats — your statistics (/stats @name: someone else's)"),
        tr("/top — the best players of this group"),
        tr("/language — the language I write in here"),
        tr("/timer — turn time, reminders and what a timeout does (changed by vote)"),
        tr("/pause, /resume — pause the game and go on, by agreement"),
        tr("/replace @new — seat a new player for an absent one (/replace @old @new)"),
        tr("/quiet 23:00-08:00 Europe/Moscow — no timer pings at night (/quiet off)"),
        tr("Keep score only (a lobby button): I keep the sheet of a game played with real "
           "cards. /add Ann, Bob seats players who are not on Telegram."),
        tr("/deal — enter a deal in one line, e.g. /deal 7H Ann made; Bob whist 3; Cid pass "
           "(/deal alone shows the format of your game)"),
        tr("/undo — remove the last entered deal; /edit N — correct deal N"),
        tr("/settle — settle a paper Preferans sheet (/settle alone shows the format)"),
        tr("/help — this message"),
    ]
    return "\n".join(lines)


async def score(hub: Hub, chat_id: int, tr: Translate) -> str:
    table = hub.table_in(chat_id)
    if table is not None and table.match is not None:
        async with table.lock:
            return table.ui.score(table.match, hub.context(table, tr))
    games = await hub.storage.recent_games(chat_id, 1)
    if games and games[0].results:
        game = games[0]
        lines = [tr("No game is being played. The last one ended with:")]
        lines += [f"{r.place}. {escape(r.name)}: <b>{r.balance:+g}</b>" for r in game.results]
        return "\n".join(lines)
    return tr("No game is being played here. Send /newgame to open a table.")


async def history(hub: Hub, chat_id: int, tr: Translate) -> str:
    deals = await hub.storage.recent_deals(chat_id, 10)
    if not deals:
        return tr("No deals have been played here yet.")
    lines = [tr("<b>Last deals</b>, newest first:")]
    for deal in deals:
        ui = GAME_UIS[deal.game]
        lines.append(ui.history_line(deal.result, deal.deal_no + 1, deal.players, tr))
        if deal.robot_seats:
            lines.append(tr("  🤖 a robot played for {names}", names=", ".join(
                escape(deal.players[s]) for s in deal.robot_seats)))
    return "\n".join(lines)


async def rules_text(hub: Hub, chat_id: int, tr: Translate) -> str:
    table = hub.table_in(chat_id)
    if table is None:
        return tr("No table is open here. Send /newgame to open one.")
    rules = table.match.rules.to_dict() if table.match else dict(table.row.rules)
    return table.ui.rules_summary(rules, hub.context(table, tr))


async def export(hub: Hub, chat_id: int, tr: Translate, target: int) -> str | None:
    """Send the group's current (or last) game record to ``target`` as a JSON document;
    a message if there is nothing to send."""
    table = hub.table_in(chat_id)
    table_id = table.id if table is not None and table.status != "lobby" else None
    if table_id is None:  # the last game that was played (a cancelled lobby has no record)
        games = await hub.storage.recent_games(chat_id, 10)
        table_id = next((g.table_id for g in games if g.started_at is not None), None)
    if table_id is None:
        return tr("There is no game to export here yet.")
    record = await hub.storage.export_record(table_id)
    data = json.dumps(record, ensure_ascii=False, indent=1).encode()
    await hub.outbox.call(target, lambda: hub.bot.send_document(
        target, InputFile(io.BytesIO(data), filename=f"{record['game']}-{table_id}.json"),
        caption=tr("The game record (python -m engine replay FILE).")))
    return None


async def leave_or_abort(hub: Hub, chat_id: int, user: UserRow, kind: str,
                         tr: Translate) -> str | None:
    """/leave and /abort: in a lobby at once; during a game the other players vote."""
    table = hub.table_in(chat_id)
    if table is None:
        return tr("No table is open here.")
    async with table.lock:
        seat = table.seat_of(user.id)
        if table.status == "lobby":
            answer = await press(hub, table, user, ("leave",) if kind == "leave" else ("cancel",))
            return answer.text or None
        if seat is None and not (table.keeps_score and user.id == table.row.creator_id):
            return tr("Only the players of this game can do that.")
        who = hub.who(table, seat) if seat is not None else escape(user.display_name)
        group_tr = hub.tr_chat(chat_id)
        question = (group_tr("{name} wants to stop here. End the game now with the settlement "
                             "as it stands?", name=who) if kind == "leave" else
                    group_tr("{name} wants to abandon the game. Nothing will count.",
                             name=who))
        # The other present players vote (nobody to ask, e.g. only typed names: at once).
        await ask(hub, table, user.id, kind, question, lambda: _end_game(hub, table, kind))
    return None


async def vote_press(hub: Hub, table: Table, user: UserRow, parts: tuple[str, ...]) -> Answer:
    """Agree or refuse; called with the table's lock held."""
    tr = hub.tr_user(user.id)
    if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in ("y", "n"):
        return Answer.refuse(tr("That button is not one of your choices."))
    vote = hub.votes.get(table.id, int(parts[0]))
    if vote is None:
        return Answer.refuse(tr("This vote is over."))
    if user.id not in vote.voters:
        return Answer.refuse(tr("Only the other players of this game vote."))
    group_tr = hub.tr_chat(table.chat_id)
    if parts[1] == "n":
        hub.votes.close(table.id)
        hub.outbox.post(table.chat_id, Screen(group_tr("{name} refused: the game goes on.",
                                                       name=escape(user.display_name))))
        return Answer.note(tr("You refused."))
    vote.agreed.add(user.id)
    if vote.passed:
        hub.votes.close(table.id)
        await vote.on_passed()
    return Answer.note(tr("You agreed."))


async def _end_game(hub: Hub, table: Table, kind: str) -> None:
    """Carry out a passed vote (the table's lock is held by the last voter's press)."""
    tr = hub.tr_chat(table.chat_id)
    match = table.match
    if kind == "leave" and match is not None:
        table.row = await hub.storage.finish_game(table.id, match.report()["settlement"])
        hub.redraw(table)
        hub.outbox.post(table.chat_id, Screen(
            tr("🏁 <b>The game was stopped by agreement.</b>") + "\n\n"
            + table.ui.settlement(match, hub.context(table, tr))))
    else:
        table.row = await hub.storage.set_status(table.id, "aborted")
        hub.redraw(table)
        hub.outbox.post(table.chat_id, Screen(tr("The game was abandoned. Nothing counts.")))
    hub.forget(table)
