"""/sheet on the fake Bot API: the picture arrives in the group, as drawn from the game's
record; for a game in progress and for the last finished game of each kind."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.screens.sheet import identity, render_sheet
from bot.service import records
from bot.ui.pictures.canvas import Picture
from engine.__main__ import play_random
from engine.match import Match
from engine.records import replay
from tests.bot.harness import act, open_table, running_bot
from tests.fakebot import FakeTelegram
from tests.fakebot.model import Message
from tests.pictures.checks import assert_sound, one, shows_name, value

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

GAMES = {
    "pulya-3p": ("preferans", 3, 80, {"pool": 4}),
    "pulya-4p": ("preferans", 3, 80, {"players": 4, "pool": 4}),
    "seep": ("seep", 2, 40, {"bazzis": 1}),
    "joker": ("joker", 519, 24, {}),
}
NAMES = ("Anna", "Boris", "Clara", "Dmitri")


def finished_record(game: str, seed: int, deals: int, rules: dict[str, Any],
                    names: list[str]) -> dict[str, Any]:
    record = play_random(game, seed, deals, play=True, rules_data=rules)
    record = {**record, "players": names}
    assert replay(record).over
    return record


def check_photo(message: Message, match: Match) -> Picture:
    """The photo is the sheet of ``match`` (drawn again here), a PNG of its size, and the
    names and balances drawn are the game's."""
    assert message.file is not None and message.file.kind == "photo"
    picture = render_sheet(match, identity)
    assert message.file.data == picture.png
    image = Image.open(BytesIO(message.file.data))
    assert image.format == "PNG" and image.size == picture.size
    assert_sound(picture)
    report = match.report()
    for seat, name in enumerate(match.players):
        assert shows_name(one(picture, "name", seat).text, name)
        column = seat % 2 if match.spec.name == "seep" else seat  # Seep: one per team
        assert value(picture, "balance", column) == report["settlement"][seat]
    return picture


@pytest.mark.parametrize("kind", list(GAMES))
async def test_sheet_of_the_last_finished_game(tg: FakeTelegram, tmp_path: Path,
                                               kind: str) -> None:
    game, seed, deals, rules = GAMES[kind]
    players = 3 if kind == "pulya-3p" else 4
    users = [tg.add_user(n) for n in NAMES[:players]]
    group = tg.add_group("Cards", users)
    record = finished_record(game, seed, deals, rules, list(NAMES[:players]))
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await records.import_record(hub.services.store, group.id, record)
        tg.send(users[1], group, "/sheet")
        await tg.settled(group)
        photo = tg.last_message(group)
        check_photo(photo, replay(record))
        assert photo.text == f"Scoresheet · deals played: {len(replay(record).outputs)}"


async def test_sheet_of_a_game_in_progress(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES[:3]]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        tg.send(users[0], group, "/sheet")
        await tg.settled(group)
        assert "No game has been played here yet" in tg.last_message(group).text
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.settled(group)
        table = next(iter(hub.services.tables.values()))
        while len(table.match.outputs) < 2:  # two deals, everyone passing: raspasy
            state = table.match.state
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            await act(tg, users[state.controller(seat)],
                      "bid:pass" if "bid:pass" in legal else legal[0])
        tg.send(users[2], group, "/sheet")
        await tg.settled(group)
        photo = tg.last_message(group)
        picture = check_photo(photo, table.match)
        assert one(picture, "status").text.startswith("deals: 2")
        tg.send(users[2], users[2], "/sheet")  # in private: the sheet of the player's table
        await tg.settled(group)
        assert tg.last_message(users[2]).file.data == photo.file.data


async def play_raspasy(tg: FakeTelegram, users: list, table) -> None:
    """One deal with everyone passing."""
    deals = len(table.match.outputs)
    while len(table.match.outputs) == deals:
        state = table.match.state
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        await act(tg, users[state.controller(seat)],
                  "bid:pass" if "bid:pass" in legal else legal[0])


async def test_sheet_on_attaches_the_picture_to_each_deal(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in NAMES[:3]]
    watcher = tg.add_user("Watcher")
    group = tg.add_group("Cards", [*users, watcher])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        lobby = tg.last_message(group)
        tg.send(watcher, group, "/sheet on")
        await tg.settled(group)
        assert tg.last_message(group).text == "Only the players of this game can do that."
        tg.send(users[1], group, "/sheet sometimes")
        await tg.settled(group)
        assert "/sheet on to get it after every deal" in tg.last_message(group).text
        tg.send(users[1], group, "/sheet on")
        await tg.settled(group)
        assert tg.last_message(group).text.startswith("From now on every deal's result")
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.settled(group)
        table = next(iter(hub.services.tables.values()))
        await play_raspasy(tg, users, table)
        await tg.settled(group)
        messages = tg.messages(group)
        summary = next(i for i, m in enumerate(messages) if m.text.startswith("Deal 1\n"))
        photo = messages[summary + 1]
        record = await hub.services.store.log.record(table.id)
        check_photo(photo, replay({**record, "deals": record["deals"][:1]}))
        assert photo.text == "Scoresheet · deals played: 1"

        tg.send(users[2], group, "/sheet off")
        await tg.settled(group)
        assert await hub.services.store.tables.get_table(table.id) is not None
        await play_raspasy(tg, users, table)
        await tg.settled(group)
        assert [m.text for m in tg.messages(group) if m.file is not None] == [photo.text]
