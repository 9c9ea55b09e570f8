"""The bot on a loopback fake Bot API (tests/fakebot): handling latency under many tables,
Telegram API calls per card played, and a group's peak messages-plus-edits a minute.

Latency is measured from a press (the update offered to the bot) to the bot's answer to
it, which comes after the move is stored durably; the tables play concurrently.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from bench.figures import Figure
from bot.telegram.context import BotData
from bot.ui.callbacks import action_data
from engine.games import get_game
from engine.match import Match
from storage.rows import Entry
from storage.store import Storage
from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import make, only_table, seat_users
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.fakebot.model import Chat

MESSAGE_CALLS = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup",
                           "deleteMessage", "sendDocument", "sendPhoto"})


async def _seed(db: Path, tg: FakeTelegram, tables: int) -> list[tuple[Chat, list[User]]]:
    """Started 3-player Preferans games, stored as the bot would store them."""
    storage = await Storage.open(str(db))
    spec = get_game("preferans")
    seated = []
    try:
        for t in range(tables):
            users = [tg.add_user(f"P{t}_{i}") for i in range(3)]
            group = tg.add_group(f"Table {t}", users)
            for user in users:
                tg.private_chat(user).bot_status = "member"
                await storage.chats.save_user(user.id, display_name=user.first_name,
                                        has_started_bot=True)
            row = await storage.tables.create_table(group.id, "preferans", creator_id=users[0].id,
                                             rules={}, seat_count=3)
            for user in users:
                await storage.tables.seat_user(row.id, user.id)
            row = await storage.tables.start_game(row.id,
                                                  rules=spec.rules.from_dict({}).to_dict())
            match = Match(spec, spec.rules.from_dict(row.rules), list(row.players or []), 2)
            match.start_deal(seed=secrets.randbits(64))
            await storage.log.append(row.id, match.version, Entry.deal(match.deals[-1]))
            seated.append((group, users))
    finally:
        await storage.close()
    return seated


def next_move(hub: BotData, table_id: int) -> tuple[int, int, int, str] | None:
    """A table's version, the seat to act, the seat of its player and its first legal action
    (None: the table has no deal going on)."""
    table = hub.services.tables.get(table_id)
    if table is None or table.match is None or table.match.state is None:
        return None
    state = table.match.state
    seat = state.to_act[0]
    return table.match.version, seat, state.controller(seat), state.legal_actions(seat)[0]


async def _play(tg: FakeTelegram, hub: BotData, users: list[User], table_id: int, moves: int,
                latencies: list[float]) -> int:
    """Press ``moves`` legal actions of one table in turn; returns the cards played."""
    cards = 0
    for _ in range(moves):
        move = next_move(hub, table_id)
        if move is None:
            break
        version, seat, player, action = move
        user = users[player]
        data = action_data(table_id, version, seat, action)
        started = time.perf_counter()
        query = tg.press_nowait(user, tg.last_message(user), data=data, forge=True)
        answer = await tg.answer_to(query, timeout=60)
        if answer.show_alert:
            raise AssertionError(f"table {table_id}: {action} refused: {answer.text}")
        if action.startswith("play:"):
            latencies.append(time.perf_counter() - started)
            cards += 1
    return cards


async def _latency(tables: int, moves: int) -> tuple[list[float], float]:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits.off()) as tg:
            seated = await _seed(Path(tmp) / "bench.db", tg, tables)
            async with running_bot(tg, Path(tmp) / "bench.db", GROUP_MESSAGES_PER_MINUTE="18",
                                   TELEGRAM_CALLS_PER_SECOND="100000") as hub:
                await tg.idle(timeout=600)
                ids = {t.chat_id: t.id for t in hub.services.tables.values()}
                latencies: list[float] = []
                started = time.perf_counter()
                cards = await asyncio.gather(*(
                    _play(tg, hub, users, ids[group.id], moves, latencies)
                    for group, users in seated))
                elapsed = time.perf_counter() - started
                await tg.idle(timeout=600)
    return latencies, sum(cards) / elapsed


async def _calls_per_card() -> tuple[float, float, int]:
    """One table played at a human pace (each press after the last one is shown)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits.off()) as tg:
            seated = await _seed(Path(tmp) / "bench.db", tg, 1)
            group, users = seated[0]
            async with running_bot(tg, Path(tmp) / "bench.db",
                                   GROUP_MESSAGES_PER_MINUTE="18") as hub:
                await tg.idle()
                table_id = next(iter(hub.services.tables.by_id))
                before = len(tg.calls)
                latencies: list[float] = []
                cards = 0
                while cards < 20:
                    cards += await _play(tg, hub, users, table_id, 1, latencies)
                    await tg.idle()
                calls = [c for c in tg.calls[before:] if c.method != "getUpdates"]
                messages = [c for c in calls if c.method in MESSAGE_CALLS]
                peak = tg.peak_rate(group, period=60)
    return len(calls) / cards, len(messages) / cards, peak


async def _calls_per_move(game: str, moves: int) -> tuple[float, float, float]:
    """One 4-player Seep or Joker table at a human pace, every move made through the panel's
    buttons as a player makes it (a Seep card tapped, then its move; a joker tapped, then its
    declaration), the robots deciding: calls, message calls and presses per move."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits.off()) as tg:
            users = [tg.add_user(f"P{i}") for i in range(4)]
            group = tg.add_group(game, users)
            async with running_bot(tg, Path(tmp) / "bench.db",
                                   GROUP_MESSAGES_PER_MINUTE="18") as hub:
                lobby = await open_table(tg, group, users, game=game)
                await tg.press(users[0], lobby, text="▶ Start")
                await tg.idle()
                match = only_table(hub).match
                assert match is not None
                players = seat_users(hub, users)
                rng = random.Random(1)
                before, presses = len(tg.calls), 0
                for _ in range(moves):
                    state = match.state
                    assert state is not None
                    seat = state.to_act[0]
                    action = match.spec.robot.choose(state.view(seat), match.rules, rng)
                    presses += await make(tg, players[seat], action)
                calls = [c for c in tg.calls[before:] if c.method != "getUpdates"]
                messages = [c for c in calls if c.method in MESSAGE_CALLS]
    return len(calls) / moves, len(messages) / moves, presses / moves


async def _peak_group_rate(tables: int = 3, seconds: float = 75) -> int:
    """Players pressing as fast as they can for over a minute: the busiest group minute."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits()) as tg:
            seated = await _seed(Path(tmp) / "bench.db", tg, tables)
            async with running_bot(tg, Path(tmp) / "bench.db",
                                   GROUP_MESSAGES_PER_MINUTE="18") as hub:
                await tg.idle(timeout=120)
                ids = {t.chat_id: t.id for t in hub.services.tables.values()}
                deadline = time.perf_counter() + seconds

                async def keep_playing(group: Chat, users: list[User]) -> None:
                    while time.perf_counter() < deadline:
                        if not await _play(tg, hub, users, ids[group.id], 1, []):
                            await asyncio.sleep(0.05)

                await asyncio.gather(*(keep_playing(g, u) for g, u in seated))
                return max(tg.peak_rate(group, period=60) for group, _ in seated)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(quick: bool) -> list[Figure]:
    figures = []
    sizes = [(100, 12)] if quick else [(100, 30), (1000, 12)]
    for tables, moves in sizes:
        latencies, cards_per_second = asyncio.run(_latency(tables, moves))
        note = f"{tables} tables playing at once, {len(latencies)} cards"
        figures.append(Figure("bot", f"card play latency median, {tables} tables",
                              statistics.median(latencies) * 1000, "ms", note))
        figures.append(Figure("bot", f"card play latency p99, {tables} tables",
                              _percentile(latencies, 0.99) * 1000, "ms", note))
        figures.append(Figure("bot", f"cards handled per second, {tables} tables",
                              cards_per_second, "cards/s", "durable commit per action"))
    calls, messages, _ = asyncio.run(_calls_per_card())
    figures.append(Figure("bot", "Telegram API calls per card played", calls, "calls",
                          "one table at a human pace, answers to presses included"))
    figures.append(Figure("bot", "message sends and edits per card played", messages, "calls",
                          "3 panels and the group's table message"))
    for game in ("seep", "joker"):
        calls, messages, presses = asyncio.run(_calls_per_move(game, 30 if quick else 120))
        note = f"4 players at a human pace, {presses:.2f} presses a move"
        figures.append(Figure("bot", f"{game.title()}: Telegram API calls per move", calls,
                              "calls", note + ", answers to presses included"))
        figures.append(Figure("bot", f"{game.title()}: message sends and edits per move",
                              messages, "calls", "4 panels and the group's table message"))
    if not quick:
        peak = asyncio.run(_peak_group_rate())
        figures.append(Figure("bot", "peak group messages+edits in any minute", peak,
                              "per minute", "players pressing as fast as they can for 75 s; "
                              "Telegram allows 20"))
    return figures
