"""The bot on a loopback fake Bot API (tests/fakebot): handling latency under many tables;
and under Telegram's real limits, for each game at a human pace and at the fastest: sends
and edits and calls per card or move, how long a deal's result takes after its last card,
how far the group's table message is behind the panels, and the peak rates per chat.

Latency is measured from a press (the update offered to the bot) to the bot's answer to
it, which comes after the move is stored durably; the tables play concurrently.
"""

from __future__ import annotations

import asyncio
import functools
import random
import secrets
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench import clock
from bench.figures import Figure
from bot.telegram.context import BotData
from bot.ui.callbacks import action_data
from engine.games import get_game
from engine.match import Match
from engine.robot_budget import Budget
from storage.rows import Entry
from storage.store import Storage
from tests.bot.harness import act, open_table, running_bot
from tests.bot.tabletop import make, only_table, seat_users
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.fakebot.model import ApiCall, Chat

PACES = (0.4, 1.2, 5.0, 10.0, 30.0)  # seconds between a table's actions
QUICK_PACES = (1.2, 5.0)  # --quick: two paces, each on a sped-up clock (the slow ones take minutes)
REAL_PACE = (0.1, 0.4)  # (quick, full): real seconds an action takes, the clock sped up to it
# ... at most this much: the bot's own work looks this many times slower (bench/clock.py)
MAX_SPEED = 15.0
GOALS = {"preferans": 2.5, "seep": 2.2, "joker": 2.2}  # sends+edits per card or move at most
TOKEN = 30  # sends+edits a second one bot token has for all its tables

MESSAGE_CALLS = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup",
                           "sendDocument", "sendPhoto"})  # sends and edits: deletes apart


async def _seed(db: Path | str, tg: FakeTelegram, tables: int, *,
                matches: list[tuple[int, Match, list[User]]] | None = None,
                ) -> list[tuple[Chat, list[User]]]:
    """Started 3-player Preferans games, stored as the bot would store them (a SQLite file
    or a PostgreSQL URL); ``matches`` is given each table's id, match and players."""
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
            if matches is not None:
                matches.append((row.id, match, users))
    finally:
        await storage.close()
    return seated


def seen(hub: BotData) -> None:
    """Every seated player has just seen his panel, as at a game started through the bot (its
    first panels are notifications): the tables ``_seed`` stored are loaded without it, and
    each player's first turn would come as a new message, the old one deleted."""
    for table in hub.services.tables.values():
        for seat in table.row.seats:
            if seat.user_id is not None:
                table.touch(seat.user_id)


def next_move(hub: BotData, table_id: int) -> tuple[int, int, int, str] | None:
    """A table's version, the seat to act, the seat of its player and its first legal action
    (None: the table has no deal going on)."""
    table = hub.services.tables.get(table_id)
    if table is None or table.match is None or table.match.state is None:
        return None
    state = table.match.state
    seat = state.to_act[0]
    return table.match.version, seat, state.controller(seat), state.legal_actions(seat)[0]


UNANSWERED = 60.0  # seconds: a press not answered by then ends its table's play (counted)


async def _play(tg: FakeTelegram, hub: BotData, users: list[User], table_id: int, moves: int,
                latencies: list[float]) -> int:
    """Press ``moves`` legal actions of one table in turn; returns the cards played, or -1
    when a press was not answered within ``UNANSWERED`` seconds (the table stops there: its
    next press could not know the version; the press counts as that late)."""
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
        await asyncio.wait({query.answer}, timeout=UNANSWERED)
        if not query.answer.done():
            latencies.append(UNANSWERED)
            return -1
        answer = query.answer.result()
        if answer.show_alert:
            raise AssertionError(f"table {table_id}: {action} refused: {answer.text}")
        if action.startswith("play:"):
            latencies.append(time.perf_counter() - started)
            cards += 1
    return cards


async def _latency(tables: int, moves: int) -> tuple[list[float], float, int]:
    """The card presses' latencies, the cards handled a second, the presses not answered."""
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
    return latencies, sum(max(0, c) for c in cards) / elapsed, cards.count(-1)


@dataclass
class Paced:
    """One table played through its panels' buttons at a given pace under Telegram's real
    limits: what it cost and how late the group saw things."""

    deals: int = 0  # whole deals played (the figures count only those)
    moves: int = 0
    cards: int = 0  # Preferans: cards played (the unit of its figures)
    presses: int = 0
    calls: int = 0  # every call but getUpdates, answers to presses included
    messages: int = 0  # sends and edits
    deletes: int = 0  # an old panel deleted when its turn was posted anew (a notification)
    result_delays: list[float] = field(default_factory=list)  # last card -> result sent
    group_lags: list[float] = field(default_factory=list)  # a press -> the group shows it
    peak_group: int = 0  # the group's most calls in any 60 s
    peak_private: int = 0  # a player's most calls in any 3 s
    errors: int = 0  # answers of 429
    seconds: float = 0.0  # from the start to the last deal's end
    kinds: Counter[str] = field(default_factory=Counter)  # sends+edits by kind (``_kind``)


async def _paced(game: str, players: int, deals: int, pace: float) -> Paced:
    """``deals`` whole deals of robot-chosen actions pressed as a player presses them (a Seep
    card, then its move; a Preferans discard card by card), one every ``pace`` seconds at
    most: every call from the start to the last deal's end counts, bidding included. The
    deals and the robots' choices are seeded: each run plays the same deals."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits()) as tg:
            users = [tg.add_user(f"P{i}") for i in range(players)]
            group = tg.add_group(game, users)
            async with running_bot(tg, Path(tmp) / "bench.db",
                                   GROUP_MESSAGES_PER_MINUTE="18") as hub:
                hub.services.seed = functools.partial(random.Random(players).getrandbits, 64)
                lobby = await open_table(tg, group, users, game=game,
                                         options={"Players": 1} if players == 4
                                         and game == "preferans" else None)
                await tg.press(users[0], lobby, text="▶ Start")
                await tg.idle()
                match = only_table(hub).match
                assert match is not None
                seats = seat_users(hub, users)
                rng = random.Random(1)
                choose = match.spec.robot.choose
                if game == "preferans":  # its robot thinks by the clock: by samples here
                    choose = functools.partial(choose, budget=Budget(samples=8, seconds=None))
                figures, before, presses = Paced(), len(tg.calls), []
                began = tg.world.now()
                while figures.deals < deals and not match.over:  # a short pool may end first
                    state = match.state
                    assert state is not None
                    seat = state.to_act[0]
                    user = seats[state.controller(seat)]
                    action = choose(state.view(state.controller(seat)), match.rules, rng)
                    done, started = len(match.outputs), tg.world.now()
                    presses.append(started)
                    if game == "preferans":
                        await act(tg, user, action)
                        figures.presses += 1 + 2 * action.startswith("discard:")
                    else:
                        figures.presses += await make(tg, user, action)
                    figures.moves += 1
                    figures.cards += action.startswith("play:")
                    if len(match.outputs) > done:
                        figures.deals += 1
                        await tg.settled()
                        sent = next(c.time for c in tg.calls_for("sendMessage", group)
                                    if c.time >= started and "<b>Deal" in str(
                                        c.params.get("text", "")))
                        figures.result_delays.append(sent - started)
                    await asyncio.sleep(max(0.0, pace - (tg.world.now() - started)))
                await tg.settled()
                figures.seconds = tg.world.now() - began
                calls = [c for c in tg.calls[before:] if c.method != "getUpdates"]
                figures.calls = len(calls)
                figures.messages = sum(c.method in MESSAGE_CALLS for c in calls)
                figures.deletes = sum(c.method == "deleteMessage" for c in calls)
                figures.errors = sum(c.status == 429 for c in calls)
                figures.kinds = _kinds(calls, group.id)
                edits = sorted(c.time for c in calls if c.chat_id == group.id
                               and c.method == "editMessageText")
                figures.group_lags = [next((e for e in edits if e >= t), edits[-1]) - t
                                      for t in presses if edits]
                figures.peak_group = tg.peak_rate(group, period=60)
                figures.peak_private = max(tg.peak_rate(u, period=3.0) for u in users)
    return figures


def _kinds(calls: list[ApiCall], group: int) -> Counter[str]:
    """Where the sends and edits go: the group's table message, its one-off messages; a
    panel that offers its player a turn (his buttons come or change), one whose turn buttons
    go (he acted), any other panel change (a waiting player's); a player's one-off messages."""
    kinds: Counter[str] = Counter()
    turn: dict[int | str | None, bool] = {}  # a private chat -> its panel offers a turn
    for call in calls:
        if call.method not in MESSAGE_CALLS:
            continue
        markup = call.params.get("reply_markup") or {}
        offers = any(str(button.get("callback_data", "")).startswith(("a:", "u:"))
                     for row in markup.get("inline_keyboard", []) for button in row)
        if call.chat_id == group:
            kinds["group table" if call.method.startswith("edit") else "group one-off"] += 1
            continue
        if call.method == "sendMessage" and not markup:
            kinds["player one-off"] += 1
            continue
        kinds["panel: a turn" if offers else "panel: turn buttons go"
              if turn.get(call.chat_id) else "panel: waiting"] += 1
        turn[call.chat_id] = offers
    return kinds


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


GAMES = (("preferans", 3, "card", 1), ("seep", 4, "move", 1), ("joker", 4, "move", 3))
ALONE = 2.0  # seconds: a faster pace is played one game at a time (the bot's work counts)


def _paced_figures(pace: float, real_pace: float, times: int) -> list[Figure]:
    """Every game (``GAMES``, its deals ``times`` over) at one pace (seconds between actions)
    on a clock sped up (bench/clock.py) so that an action takes ``real_pace`` seconds of real
    time; at a slow pace the games play at once, each with its own fake Bot API and bot."""
    speed = min(MAX_SPEED, max(1.0, pace / real_pace))

    async def together() -> list[Paced]:
        return list(await asyncio.gather(*(_paced(game, players, deals * times, pace)
                                           for game, players, _, deals in GAMES)))

    if pace < ALONE:
        played = [clock.run(_paced(game, players, deals * times, pace), speed)
                  for game, players, _, deals in GAMES]
    else:
        played = clock.run(together(), speed)
    out = []
    for (game, players, unit, _), got in zip(GAMES, played, strict=True):
        out += _figures(game, players, unit, pace, speed, got)
    return out


def _figures(game: str, players: int, unit: str, pace: float, speed: float,
             got: Paced) -> list[Figure]:
    """One game's figures at one pace."""
    title = f"{game.title()} ({players} players)"
    goal = GOALS[game]
    per = got.cards if unit == "card" else got.moves
    note = (f"an action every {pace} s under Telegram's limits, {got.deals} whole deals, "
            f"{per} {unit}s, {got.presses / got.moves:.2f} presses an action, "
            f"{got.errors} answers of 429"
            + (f", on a clock {speed:g} times faster" if speed > 1 else ""))
    a_second = got.messages / got.seconds
    out = [
        Figure("bot", f"{title}: sends+edits per {unit}, {pace} s pace",
               got.messages / per, "calls", f"goal <= {goal}; {note}"),
        *(Figure("bot", f"{title}: {kind} per {unit}, {pace} s pace", count / per, "calls",
                 "sends+edits of this kind") for kind, count in sorted(got.kinds.items())),
        Figure("bot", f"{title}: tables one token carries, {pace} s pace",
               TOKEN / a_second, "tables",
               f"{TOKEN} calls a second / {a_second:.3f} sends+edits a second a table"),
        Figure("bot", f"{title}: sends+edits per deal, {pace} s pace",
               got.messages / got.deals, "calls", note),
        Figure("bot", f"{title}: deletes per {unit}, {pace} s pace", got.deletes / per,
               "calls", "old panels deleted when a turn is posted anew (not in sends+edits)"),
        Figure("bot", f"{title}: API calls per {unit}, {pace} s pace", got.calls / per,
               "calls", "answers to presses and deletes included"),
        Figure("bot", f"{title}: sends+edits a second, {pace} s pace",
               a_second, "calls/s",
               "of the ~30 a second one bot token has for all its tables"),
        Figure("bot", f"{title}: group view behind the panels median, {pace} s pace",
               statistics.median(got.group_lags), "s", "a press -> the group's next edit"),
        Figure("bot", f"{title}: group view behind the panels max, {pace} s pace",
               max(got.group_lags), "s", "a press -> the group's next edit"),
        Figure("bot", f"{title}: peak group calls in any minute, {pace} s pace",
               got.peak_group, "calls", "Telegram allows 20"),
        Figure("bot", f"{title}: peak calls to one player in any 3 s, {pace} s pace",
               got.peak_private, "calls", "Telegram allows about 3"),
    ]
    if got.result_delays:
        out += [Figure("bot", f"{title}: result after the last card median, {pace} s pace",
                       statistics.median(got.result_delays), "s",
                       f"{len(got.result_delays)} deals"),
                Figure("bot", f"{title}: result after the last card max, {pace} s pace",
                       max(got.result_delays), "s", f"{len(got.result_delays)} deals")]
    return out


def run(quick: bool) -> list[Figure]:
    figures = []
    sizes = [(50, 6)] if quick else [(100, 30), (1000, 12)]
    for tables, moves in sizes:
        latencies, cards_per_second, unanswered = asyncio.run(_latency(tables, moves))
        note = f"{tables} tables playing at once, {moves} actions each, {len(latencies)} cards"
        figures.append(Figure("bot", f"card play latency median, {tables} tables",
                              statistics.median(latencies) * 1000, "ms", note))
        figures.append(Figure("bot", f"card play latency p99, {tables} tables",
                              _percentile(latencies, 0.99) * 1000, "ms", note))
        figures.append(Figure("bot", f"cards handled per second, {tables} tables",
                              cards_per_second, "cards/s", "durable commit per action"))
        figures.append(Figure("bot", f"presses unanswered after {UNANSWERED:g} s, {tables} "
                              "tables", unanswered, "presses", "each ends its table's play "
                              "(Telegram gives up on an answer after 15 s)"))
    for pace in QUICK_PACES if quick else PACES:  # the same seeded deals at every pace
        figures.extend(_paced_figures(pace, REAL_PACE[0 if quick else 1], 1 if quick else 2))
    if quick:
        figures.append(Figure("bot", "paces played (--quick)", len(QUICK_PACES), "paces",
                              f"only {', '.join(map(str, QUICK_PACES))} s, one round of deals; "
                              f"the full run plays {', '.join(map(str, PACES))} s, twice"))
    if not quick:
        peak = asyncio.run(_peak_group_rate())
        figures.append(Figure("bot", "peak group messages+edits in any minute", peak,
                              "per minute", "players pressing as fast as they can for 75 s; "
                              "Telegram allows 20"))
    return figures
