"""/stats and /top through the bot after several finished games (imported records): the
figures are the records' own, computed here from their replays."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.screens.ratings import rating
from bot.screens.texts import balance, figure
from bot.service import records as stored
from engine.__main__ import play_random
from engine.records import replay
from tests.bot.harness import running_bot
from tests.fakebot import FakeTelegram, User

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

NAMES = ("Anna", "Boris", "Clara", "Dmitri", "Elena")
# (game, seed, rules, seats as indexes into the users)
GAMES = [
    ("preferans", 3, {"pool": 4}, (0, 1, 2)),
    ("preferans", 5, {"pool": 4}, (1, 2, 0)),
    ("preferans", 7, {"pool": 4}, (2, 0, 3)),
    ("preferans", 11, {"pool": 4, "players": 4}, (0, 1, 2, 3)),
    ("preferans", 13, {"pool": 4}, (4, 0, 1)),
    ("joker", 519, {}, (0, 1, 2, 3)),
    ("seep", 2, {"bazzis": 1}, (3, 2, 1, 0)),
]


def records() -> list[tuple[dict[str, Any], tuple[int, ...]]]:
    out = []
    for game, seed, rules, seats in GAMES:
        record = play_random(game, seed, 200, play=True, rules_data=rules)
        record = {**record, "players": [NAMES[i] for i in seats]}
        assert replay(record).over
        out.append((record, seats))
    return out


def expected_preferans(user: int, games: list[tuple[dict[str, Any], tuple[int, ...]]]) -> dict:
    """A player's Preferans figures, read from the replays."""
    e: dict[str, Any] = defaultdict(int)
    e["contracts"] = defaultdict(lambda: [0, 0])
    for record, seats in games:
        if record["game"] != "preferans" or user not in seats:
            continue
        me = seats.index(user)
        report = replay(record).report()
        e["games"] += 1
        e["first"] += report["settlement"][me] == max(report["settlement"])
        e["balance"] += report["settlement"][me]
        for deal in report["deals"]:
            e["deals"] += 1
            whists = deal["entries"]["whists"]
            e["won"] += sum(whists[me])
            e["lost"] += sum(row[me] for row in whists)
            if deal.get("declarer") != me:
                continue
            tricks = deal["tricks"]
            if deal["kind"] == "miser":
                e["miser_made" if tricks[me] == 0 else "miser_failed"] += 1
            elif deal["kind"] in ("game", "walkaway"):
                level = int(deal["contract"][:-1].rstrip("N"))
                made = deal["kind"] == "game" and (sum(tricks) == 0 or tricks[me] >= level)
                e["contracts"][level][0 if made else 1] += 1
    return e


async def ask(tg: FakeTelegram, user: User, chat: Any, text: str, **kw: Any) -> str:
    """The text the bot answers with (a picture may follow it)."""
    tg.send(user, chat, text, **kw)
    await tg.settled(chat)
    return [m for m in tg.messages(chat) if m.sender is tg.bot and m.file is None][-1].text


def expected_ratings(games: list[tuple[dict[str, Any], tuple[int, ...]]],
                     game: str) -> dict[int, tuple[PlackettLuceRating, int]]:
    """Each user's rating in ``game`` and his number of games, by openskill itself, the
    games rated in the order they were stored (each plays alone in these games)."""
    model = PlackettLuce()
    found: dict[int, tuple[PlackettLuceRating, int]] = {}
    for record, seats in games:
        if record["game"] != game:
            continue
        settlement = replay(record).report()["settlement"]
        ranks = [1 + sum(other > mine for other in settlement) for mine in settlement]
        before = [[found[u][0] if u in found else model.rating()] for u in seats]
        for user, [new] in zip(seats, model.rate(before, ranks=ranks), strict=True):
            found[user] = (new, found.get(user, (None, 0))[1] + 1)
    return found


@pytest.fixture
def users(tg: FakeTelegram) -> list[User]:
    return [tg.add_user(name, username=name.lower() + "_p") for name in NAMES]


async def test_stats_and_top_match_the_records(tg: FakeTelegram, tmp_path: Path,
                                               users: list[User]) -> None:
    group = tg.add_group("Cards", users)
    games = records()
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        for user in users:
            tg.press_start(user)
        await tg.idle()
        for record, seats in games:
            await stored.import_record(hub.services.store, group.id, record,
                                            user_ids=[users[i].id for i in seats])
        ratings = expected_ratings(games, "preferans")
        for who in range(len(NAMES)):
            text = await ask(tg, users[who], group, "/stats")
            e = expected_preferans(who, games)
            assert f"📊 {NAMES[who]}" in text
            if who in ratings:  # one group: its ratings are the ones across all groups
                skill, count = ratings[who]
                for where in ("here", "in all groups"):
                    assert (f"Rating {where}: {rating(skill.ordinal())} · rated games: "
                            f"{count}") in text
            picture = tg.last_message(group)
            assert picture.file is not None and picture.file.kind == "photo"
            assert picture.text == f"📈 The rating of {NAMES[who]} after each rated game"
            assert picture.file.width == 1080
            assert f"Finished games: {e['games']} · won: {e['first']}" in text
            per_game = balance(e["balance"] / e["games"])
            assert f"Balance in whists: {balance(e['balance'])} ({per_game} a game)" in text
            assert f"Deals: {e['deals']}" in text
            contracts = " · ".join(f"{level}: {made}/{failed}" for level, (made, failed)
                                   in sorted(e["contracts"].items()))
            if contracts:
                assert f"Contracts by level (made/failed): {contracts}" in text
            assert (f"Misère (made/failed): {e['miser_made']}/{e['miser_failed']}"
                    in text)
            assert (f"Whists written: {figure(e['won'])} · written on them: "
                    f"{figure(e['lost'])}") in text
            assert ("Joker" in text) == (who in GAMES[5][3])
            assert ("Seep" in text or "seep" in text.lower()) == (who in GAMES[6][3])

        # someone else's: by @username, and by replying to their message
        assert (await ask(tg, users[0], group, "/stats @clara_p")).startswith("📊 Clara")
        said = tg.send(users[3], group, "hello")
        assert (await ask(tg, users[0], group, "/stats", reply_to=said)).startswith(
            "📊 Dmitri")
        assert "I do not know @nobody" in await ask(tg, users[0], group, "/stats @nobody")

        # the leaderboard: the conservative estimate of the rating, at least 2 games
        want = expected_ratings(games, "preferans")
        ranked = sorted((u for u in want if want[u][1] >= 2), key=lambda u: -want[u][0].ordinal())
        top = await ask(tg, users[1], group, "/top preferans 2")
        lines = [line for line in top.splitlines() if line[:1].isdigit()]
        assert lines == [f"{place}. {NAMES[u]}: {rating(want[u][0].ordinal())} · games: "
                         f"{want[u][1]}" for place, u in enumerate(ranked, 1)]
        assert "minimum of rated games: 2" in top
        assert 4 not in ranked  # Elena played one game only

        every = await ask(tg, users[1], group, "/top 1")  # every game kind, everyone
        assert "Preferans" in every and "Elena" in every
        assert "joker" in every.lower() and "seep" in every.lower()
        assert "Nobody here has played enough rated games" in await ask(
            tg, users[1], group, "/top 50")
        assert "for example /top preferans 5" in await ask(tg, users[1], group, "/top chess")
        assert "Send /top in a group" in await ask(tg, users[1], users[1], "/top")
        own = await ask(tg, users[4], users[4], "/stats")  # in private: one's own
        assert own.startswith("📊 Elena") and "Finished games: 1" in own
