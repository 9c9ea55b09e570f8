"""Stale, foreign and forged presses and junk commands: an answer each, nothing changes,
nothing crashes."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.service.tables import Table
from tests.bot.harness import open_table, press_first, running_bot
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def junk(rng: random.Random, table: int, version: int) -> str:
    """Callback data a client could send: our shapes with wrong parts, and garbage."""
    moves = ["bid:6S", "bid:11S", "play:AS", "play:ZZ", "whist:maybe", "discard:7S",
             "open:perhaps", "contract:6S", ""]
    lobby = ["start", "cancel", "set:variant", "set:nothing", "page:x", "join", "frobnicate", ""]
    pieces = [
        f"a:{table}:{version}:{rng.randrange(5)}:{rng.choice(moves)}",
        f"a:{table}:{version + rng.choice([-3, -1, 1, 7])}:0:bid:pass",
        f"a:{rng.randrange(10**6)}:{version}:0:bid:pass",
        f"u:{table}:{version}:{rng.randrange(5)}:{rng.choice(['AS', 'XX', '', '10H', 'back'])}",
        f"l:{table}:{rng.choice(lobby)}",
        f"v:{table}:{rng.randrange(5)}:{rng.choice(['y', 'n', 'maybe'])}",
        rng.choice(["", ":", "a", "a:", "a:x:y:z:w", "l:-1:join", "zz:1:2", "a:1:2:3", "🂡" * 10,
                    "a:" + "9" * 60, "v:1", "u:1:2:3"]),
        "".join(rng.choice("al:uv0123456789xyz") for _ in range(rng.randrange(1, 64))),
    ]
    return rng.choice(pieces)


def legal_for(table: Table, user_id: int, data: str) -> bool:
    parts = data.split(":", 4)
    if len(parts) != 5 or parts[0] != "a" or parts[1] != str(table.id):
        return False
    state = table.match.state
    if parts[2] != str(table.match.version) or not parts[3].isdigit():
        return False
    seat = int(parts[3])
    return (seat in state.to_act and table.user_of(state.controller(seat)) == user_id
            and parts[4] in state.legal_actions(seat))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_forged_stale_and_foreign_presses_change_nothing(
        tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture, seed: int) -> None:
    rng = random.Random(seed)
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    stranger = tg.add_user("Eve")
    group = tg.add_group("Cards", [*users, stranger])
    tg.press_start(stranger)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        table = next(iter(hub.services.tables.values()))
        for _ in range(4):
            assert await press_first(tg, users)
        stale = {u.id: [b["callback_data"] for b in tg.last_message(u).buttons
                        if "callback_data" in b] for u in users}
        for _ in range(2):
            assert await press_first(tg, users)
        caplog.clear()
        caplog.set_level(logging.ERROR)
        before = (table.match.version, await hub.services.store.log.record(table.id))
        for _ in range(120):
            presser = rng.choice([*users, stranger])
            own = [tg.last_message(presser)] if presser in users else []
            message = rng.choice([tg.last_message(group), *own])
            data = junk(rng, table.id, table.match.version)
            if presser.id in stale and rng.random() < 0.3:
                # Someone else's panel buttons, pressed by this user (a forwarded keyboard).
                other = rng.choice([u for u in users if u is not presser])
                buttons = [b for b in tg.last_message(other).buttons if "callback_data" in b]
                if buttons:
                    data = rng.choice(buttons)["callback_data"]
            if legal_for(table, presser.id, data):
                continue  # a well-formed move of the player whose turn it is: not junk
            answer = await tg.press(presser, message, data=data, forge=True)
            assert answer.show_alert or not data.startswith(("a:", "u:")), (data, answer)
        for user in users:  # every button the players' panels had two moves ago
            for data in stale[user.id]:
                answer = await tg.press(user, tg.last_message(user), data=data, forge=True)
                assert answer.show_alert, data
        await tg.idle()
        after = (table.match.version, await hub.services.store.log.record(table.id))
        assert after == before
        for text in ("/foo", "/score@someotherbot", "/newgame", "/start garbage", "/leave",
                     "/abort", "/pref nonsense", "/export extra words", "/rules", "/history",
                     "/" + "x" * 300, "/newgame@cardtable_test_bot seep?"):
            tg.send(stranger, group, text)
        for text in ("/start j99999", "/start t1", "/start " + "x" * 60, "/zzz", "/score",
                     "/leave", "/export"):
            tg.send(stranger, stranger, text)
        await tg.idle()
        assert (table.match.version, await hub.services.store.log.record(table.id)) == before
        assert not [r for r in caplog.records if r.name.startswith("bot")], caplog.text
        assert await press_first(tg, users)  # the game goes on


async def test_names_with_markup_characters_are_shown_as_written(tg: FakeTelegram,
                                                                 tmp_path: Path) -> None:
    names = ("<b>Ann</b>", "Bob & Co", 'Cid "<i>"')
    users = [tg.add_user(n) for n in names]
    group = tg.add_group("<Cards> & co", users)
    async with running_bot(tg, tmp_path / "bot.db"):
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        for _ in range(6):
            assert await press_first(tg, users)
        for command in ("/score", "/history", "/rules", "/stats", "/top", "/help", "/sheet"):
            tg.send(users[0], group, command)
        await tg.idle()
        refused = [c for c in tg.calls if c.status >= 400
                   and c.method != "pinChatMessage"]  # once: whether the bot may pin here
        assert not refused, [(c.method, c.description) for c in refused]
        assert any(names[1] in text for text in tg.texts(group))
        assert any(names[0] in text for text in tg.texts(users[1]))
