"""Scorekept tables through the real bot: refused entries, /undo and /edit, votes, the end
of a game and its reopening, a restart, and the commands every table answers.

Sheets are compared with an independent reference: a Match fed the same deals
by the engine alone. Seats: Ann, Bob (Telegram), Cid (a typed name).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games import get_game
from engine.manual import add_entry, form_for
from engine.match import Match
from engine.records import replay
from tests.bot.harness import running_bot
from tests.bot.scorekeeping import Keeping, keeping_lobby, open_keeping
from tests.fakebot import FakeTelegram

# What waits here is a group's budget (the scoresheet's edits): Telegram's windows pass
# eight times faster, on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(8)

NAMES = ["Ann", "Bob", "Cid"]
# Spec E23 (Leningrad, first dealer Ann): raspasy states 1, 2, 3, 3, then games in state 3.
E23 = ["raspasy Bob 2 Cid 3 Ann 5", "raspasy Bob 2 Cid 3 Ann 5", "raspasy Bob 2 Cid 3 Ann 5",
       "8S Ann; Bob pass; Cid pass", "miser Ann 0", "7H Ann 5; Bob whist 3; Cid whist 2",
       "7C Ann 7; Bob whist 2; Cid pass", "6S Ann 6; Bob whist 2; Cid whist 2"]


def reference(rules: dict, first_dealer: int, texts: list[str]) -> Match:
    """The sheet the engine alone makes of these deals."""
    spec = get_game("preferans")
    match = Match(spec, spec.rules.from_dict(rules), NAMES, first_dealer)
    for text in texts:
        add_entry(match, form_for(match).parse(text))
    return match


async def same_sheet(keeping: Keeping, expected: Match) -> None:
    """The stored record replays to the reference's sheet; the bot's match and /score agree."""
    stored = await keeping.stored()
    assert stored.record()["deals"] == expected.record()["deals"]
    assert stored.report() == expected.report()
    assert keeping.table.match.report() == expected.report()
    score = await keeping.send("/score")
    for name, balance in zip(NAMES, expected.report()["settlement"], strict=True):
        assert f"{name}: balance {balance:+g}" in score or balance == 0, (name, balance, score)


async def test_refused_entries_change_nothing_and_say_why(tg: FakeTelegram,
                                                         tmp_path: Path) -> None:
    ann, bob, eve = tg.add_user("Ann"), tg.add_user("Bob"), tg.add_user("Eve")
    group = tg.add_group("Refusals", [ann, bob, eve])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",),
                                     options=("Variant",))
        assert "First tap who dealt" in await keeping.send("/deal 6S Ann 6; Bob whist 2; Cid "
                                                           "whist 2")
        await keeping.tap("Cid")
        await keeping.send("/deal raspasy Ann 2 Bob 3 Cid 5")  # state 2: contracts from 7♠
        stale = next(b["callback_data"] for b in keeping.message().buttons
                     if b["text"] == "Ann")
        before = (await keeping.stored()).record()
        refusals = {
            "/deal 7S Ann made; Bob whist 3; Cid wist": "Not entered: not a player, a contract "
                                                        "or a word of the deal (at 'wist'",
            "/deal 7S Ann 7; Bob whist 3; Cid whist 2": "Not entered: ",
            "/deal 8S Ann; Bob pass; Cid halfwhist": "Not entered: ",
            "/deal 6S Ann 6; Bob whist 2; Cid whist 2": "Not entered: the contract cannot be "
                                                        "below 7♠",
            "/deal raspasy Ann 2 Bob 3 Cid 4": "Not entered: ",
            "/deal miser Ann 0; Bob whist": "Not entered: ",
        }
        for text, reason in refusals.items():
            reply = await keeping.send(text)
            assert reply.startswith(reason), (text, reply)
            assert (await keeping.stored()).record() == before, text
        replies = [await keeping.send(t) for t in (
            "/deal 7S Ann 7; Bob whist 3; Cid whist 2", "/deal 8S Ann; Bob pass; Cid halfwhist")]
        assert "the tricks add up to 12, more than 10" in replies[0], replies
        assert "half-whist only after a pass, on a six or a seven" in replies[1], replies
        # the entry opened, or a button forged, by someone who neither plays nor opened the
        # table
        tg.follow(eve, next(b["url"] for b in keeping.group_message().buttons))
        await tg.settled()
        assert "Only the players" in tg.last_message(eve).text
        answer = await tg.press(eve, tg.last_message(eve), data=stale, forge=True)
        assert answer.show_alert and "Only the players" in answer.text
        # a button of an older look of the message
        await keeping.tap("Ann", "7♠", "whist · pass")
        answer = await tg.press(ann, keeping.message(), data=stale, forge=True)
        assert answer.show_alert and "out of date" in answer.text
        assert "Entered: Ann · 7♠ · Bob whist · Cid pass" in keeping.message().text
        assert (await keeping.stored()).record() == before
        # the /add of a lobby, and /deal at a table that deals its cards
        assert "lobby that keeps score" in await keeping.send("/add Dan")
        played = tg.add_group("Played", [ann, bob])
        tg.send(ann, played, "/pref")
        await tg.idle()
        tg.send(ann, played, "/deal 7S Ann made")
        await tg.idle()
        assert "This table deals its cards" in tg.last_message(played).text


async def test_lobby_names_and_seats(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Lobby", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await keeping_lobby(tg, hub, group, ann)
        await keeping.tap("✋ Join")
        reply = await keeping.send("/add bob, Cid, 7even, Cid")
        assert reply.splitlines() == ["Added: bob, Cid",
                                      "7even: a name cannot start with a digit, # or -.",
                                      "Cid is already at the table."]
        assert "Players, clockwise (3/3): Ann, bob, Cid" in keeping.message().text
        assert "remove them first" in await keeping.press("🃏 Deal the cards instead")
        await keeping.tap("✖ Cid")
        assert "A player with your name" in await keeping.press("✋ Join", bob)
        await keeping.tap("✖ bob")
        assert await keeping.press("✋ Join", bob) == "You joined: 2 of 3."
        assert await keeping.press("▶ Start") == "Waiting for 1 more players."
        reply = await keeping.send("/add Dan Eve")  # one line without commas: a name per word
        assert reply.splitlines() == ["Added: Dan", "Eve: the table is full."]
        assert "Players, clockwise (3/3): Ann, Bob, Dan" in keeping.message().text
        await keeping.tap("▶ Start")
        assert keeping.table.match.players == ["Ann", "Bob", "Dan"]
        keeping.table_id = keeping.table.id
        await keeping.open()
        assert "Who dealt the first deal?" in keeping.message().text


async def test_undo_and_edit_rescore_the_sheet(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Peter", [ann, bob])
    rules = {"variant": "leningrad"}
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",),
                                     options=("Variant",))
        await keeping.tap("Ann")
        for text in E23:
            await keeping.send(f"/deal {text}")
        deals = list(E23)
        await same_sheet(keeping, reference(rules, 0, deals))
        # a correction the rules refuse at its own deal, and one that breaks a later deal
        before = (await keeping.stored()).record()
        reply = await keeping.send("/edit 2 6S Ann 6; Bob whist 2; Cid whist 2")
        assert reply.startswith("Not corrected: the contract cannot be below 7♠"), reply
        reply = await keeping.send("/edit 7 7C Ann 6; Bob whist 2; Cid pass")
        assert reply.startswith("Not corrected: deal 8: "), reply
        assert (await keeping.stored()).record() == before
        # deal 2 becomes a whisted game made: raspasy state 1 again, later deals rescored
        await keeping.send("/edit 2 7S Ann 7; Bob whist 2; Cid pass")
        deals[1] = "7S Ann 7; Bob whist 2; Cid pass"
        expected = reference(rules, 0, deals)
        assert expected.outputs[2]["entries"]["mountain"] != reference(
            rules, 0, E23).outputs[2]["entries"]["mountain"]  # deal 3 costs r = 2, not 4
        await same_sheet(keeping, expected)
        assert any("Deal 2 was corrected.\nThe deals after it were scored again" in t
                   for t in tg.texts(group))
        # deal 5 by buttons, pre-filled: misère caught with one trick
        await keeping.send("/edit 5")
        assert "As entered: /edit 5 miser Ann 0" in keeping.message().text
        await keeping.tap("↩ Back", "1", "✅ Save deal 5")
        deals[4] = "miser Ann 1"
        await same_sheet(keeping, reference(rules, 0, deals))
        # the last deal removed, then entered again by buttons
        await keeping.send("/undo")
        await same_sheet(keeping, reference(rules, 0, deals[:-1]))
        assert "Deal 8 · Bob deals" in keeping.message().text
        await keeping.tap("Ann", "6♠", "whist · whist", "2", "2", "✅ Save deal 8")
        await same_sheet(keeping, reference(rules, 0, deals))


async def test_undo_by_another_player_is_voted(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Votes", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",))
        await keeping.tap("Cid")
        texts = ["6S Ann 6; Bob whist 2; Cid whist 2", "7H Bob made; Cid whist 3; Ann pass"]
        for text in texts:
            await keeping.send(f"/deal {text}")
        await keeping.send("/undo", bob)
        vote = tg.last_message(group)
        assert "Bob wants to remove deal 2 (7H Bob 7; Cid whist; Ann pass)" in vote.text
        answer = await tg.press(bob, vote, text="✅ Agree")
        assert "Only the other players" in answer.text
        await tg.press(ann, vote, text="❌ Refuse")
        await tg.idle()
        await same_sheet(keeping, reference({}, 2, texts))
        await keeping.send("/undo", bob)
        vote = tg.last_message(group)
        await keeping.send("/deal 6C Cid 6; Ann whist 2; Bob whist 2")  # the sheet moves on
        await tg.idle()
        assert vote.buttons == []  # the vote lapsed, and says so
        assert "no longer applies: the sheet has changed since" in vote.text
        texts.append("6C Cid 6; Ann whist 2; Bob whist 2")
        await same_sheet(keeping, reference({}, 2, texts))
        await keeping.send("/edit 1 6S Ann 7; Bob whist 2; Cid whist 1", bob)
        vote = tg.last_message(group)
        assert vote.buttons
        await keeping.send("/undo")  # Ann removes her own last deal: the edit asked is moot
        await tg.idle()
        assert vote.buttons == [] and "no longer applies" in vote.text
        texts.pop()
        await same_sheet(keeping, reference({}, 2, texts))
        await keeping.send("/edit 1 6S Ann 7; Bob whist 2; Cid whist 1", bob)
        await tg.press(ann, tg.last_message(group), text="✅ Agree")
        await tg.idle()
        texts[0] = "6S Ann 7; Bob whist 2; Cid whist 1"
        await same_sheet(keeping, reference({}, 2, texts))


async def test_game_end_reopened_by_undo(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Short", [ann, bob])
    texts = ["7S Ann; Bob pass; Cid pass", "7S Bob; Cid pass; Ann pass",
             "7S Cid; Ann pass; Bob pass"]
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",),
                                     options=("Pool",) * 5)  # pool 10 -> ... -> 4
        await keeping.tap("Cid")
        for text in texts:
            await keeping.send(f"/deal {text}")
        assert "The game is over." in tg.texts(group)[-2] or any(
            "The game is over" in t for t in tg.texts(group)[-3:])
        assert not hub.services.tables.by_id or all(
            t.status != "playing" for t in hub.services.tables.values())
        assert "The last one ended with" in await keeping.send("/score")
        await keeping.send("/undo")  # who entered it is forgotten with the game: Bob agrees
        await tg.press(bob, tg.last_message(group), text="✅ Agree")
        await tg.idle()
        assert "Deal 3 · Bob deals" in keeping.message().text
        await same_sheet(keeping, reference({"pool": 4}, 2, texts[:2]))
        await keeping.send(f"/deal {texts[2]}")
        stored = await keeping.stored()
        assert stored.over and stored.report() == reference({"pool": 4}, 2, texts).report()


async def test_restart_and_the_commands_of_every_table(tg: FakeTelegram,
                                                      tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Restart", [ann, bob])
    texts = ["6S Ann 6; Bob whist 2; Cid whist 2", "raspasy Ann 3 Bob 3 Cid 4"]
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",))
        await keeping.tap("Cid")
        for text in texts:
            await keeping.send(f"/deal {text}")
        await keeping.tap("Bob")  # deal 3 half entered when the bot stops
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = Keeping(tg, hub, group, ann)
        keeping.table_id = keeping.table.id
        assert "Deal 3 · Bob deals" in keeping.message().text
        await same_sheet(keeping, reference({}, 2, texts))
        await keeping.send("/undo")  # who entered deal 2 is not known after a restart: a vote
        await tg.press(bob, tg.last_message(group), text="✅ Agree")
        await tg.idle()
        await same_sheet(keeping, reference({}, 2, texts[:1]))
        await keeping.send(f"/deal {texts[1]}")
        assert "Deal 2: raspasy" in await keeping.send("/history")
        assert "Preferans" in await keeping.send("/rules")
        tg.send(ann, group, "/export")
        await tg.settled(group)
        document = tg.last_message(group)
        assert document.file is not None
        exported = replay(json.loads(document.file.data))
        assert exported.report() == reference({}, 2, texts).report()
        assert [d["entry"]["kind"] for d in exported.deals] == ["game", "raspasy"]


async def test_settle_paper_sheets(tg: FakeTelegram, tmp_path: Path) -> None:
    """Spec 15: S1-S4 typed as players would type them (in a group: private chats have a
    slower budget)."""
    ann = tg.add_user("Ann")
    group = tg.add_group("Paper", [ann])
    sheets = {
        "/settle sochi\nA: pool 10, mountain 10, whists B 30, C 12\n"
        "B: pool 10, mountain 4, whists A 8, C 40\nC: pool 10, mountain 21, whists A 16, B 6":
            ["1. B: +88.67", "2. A: +34.67", "3. C: -123.33"],
        "/settle sochi integer\nA 10 10 30 12\nB 10 4 8 40\nC 10 21 16 6":
            ["1. B: +89", "2. A: +35", "3. C: -124"],
        "/settle peter pool 20\nA 20 36 40 24\nB 14 20 60 12\nC 11 8 100 32":
            ["1. C: +149.33", "2. B: -6.67", "3. A: -142.67"],
        "/settle ленинград 20 целые\nA: пуля 20 гора 36 висты B 40 C 24\n"
        "B: пуля 14 гора 20 висты A 60 C 12\nC: пуля 11 гора 8 висты A 100 B 32":
            ["1. C: +149", "2. B: -7", "3. A: -142"],
        "/settle\nA: mountain 7, whists B 10\nB: mountain 0, whists D 24\n"
        "C mountain 3 on A 6\nD mountain 12 whists C 12":
            ["1. B: +69", "2. C: +19", "3. A: -11", "4. D: -77"],
        "/settle leningrad 30\nE: pool 14, mountain 38, whists S 148, W 10\n"
        "S: pool 26, mountain 41, whists E 28\nW: pool 10, mountain 28, whists E 46, S 94":
            ["1. W: +73.33", "2. E: +7.33", "3. S: -80.67"],
        "/settle leningrad 30 integer; E 14 38 148 10; S 26 41 28 0; W 10 28 46 94":
            ["1. W: +73", "2. E: +8", "3. S: -81"],
    }
    async with running_bot(tg, tmp_path / "bot.db"):
        for text, ranking in sheets.items():
            tg.send(ann, group, text)
            await tg.settled(group)
            reply = tg.last_message(group).text
            assert reply.splitlines()[-len(ranking):] == ranking, (text, reply)
        for text, why in {
            "/settle\nA 10 4\nB 10 5": "3 or 4 players",
            "/settle\nA: pool 10\nB: mountain 4\nC: pool 10": "B's pool is missing",
            "/settle\nA whists Zed 10\nB\nC": "who is that?",
            "/settle sochi 10\nA 12 0\nB 10 0\nC 10 0": "above the target",
        }.items():
            tg.send(ann, group, text)
            await tg.settled(group)
            assert why in tg.last_message(group).text, (text, tg.last_message(group).text)
        tg.press_start(ann)  # a private chat works too
        await tg.idle()
        tg.send(ann, ann, "/settle")
        await tg.idle()
        assert "one player per line" in tg.last_message(ann).text


async def test_a_scorekeeper_for_three_players_without_telegram(tg: FakeTelegram,
                                                               tmp_path: Path) -> None:
    """Ann keeps the score of Bob, Cid and Dan (typed names) without playing; /leave ends
    the game at once: nobody else on Telegram is there to agree."""
    ann, eve = tg.add_user("Ann"), tg.add_user("Eve")
    group = tg.add_group("Scorer", [ann, eve])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, guests=("Bob", "Cid", "Dan"))
        await keeping.tap("Dan", "Bob", "7♥", "whist · pass", "0", "6", "✅ Save deal 1")
        summary = tg.last_message(group).text
        assert "Tricks: Bob 6, Cid 4" in summary, summary  # Dan passed: his tricks not asked
        assert "Only the players" in await keeping.send("/undo", eve)
        await keeping.send("/leave")
        assert "The game was stopped by agreement" in tg.last_message(group).text
        stored = await keeping.stored()
        reply = await keeping.send("/score")
        assert "The last one ended with" in reply
        for name, balance in zip(["Bob", "Cid", "Dan"], stored.report()["settlement"],
                                 strict=True):
            assert f"{name}: {balance:+g}" in reply, reply
