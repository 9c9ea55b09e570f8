"""The game as a group lives it (issue 17): turns that ping, the end of each deal, a tidy
group, the owner of a table, counts that read naturally."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.tables import Table
from bot.telegram.context import BotData as Hub
from bot.telegram.sending.book import SCROLLED
from tests.bot.harness import act, acting, open_table, running_bot
from tests.bot.tabletop import command
from tests.bot.test_preferans_game import choose
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def _players(tg: FakeTelegram) -> tuple[list[User], Chat]:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    return users, tg.add_group("Cards", users)


@contextlib.asynccontextmanager
async def _game(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[
        tuple[list[User], Chat, Hub, Table]]:
    """Three players at a Preferans table whose first deal is dealt."""
    users, group = _players(tg)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.settled(group)
        yield users, group, hub, next(iter(hub.services.tables.values()))


async def _first_deal(tg: FakeTelegram, hub: Hub, users: list[User], table: Table,
                      intent: str) -> None:
    """Play the first deal to its end as ``intent`` (test_preferans_game's) says."""
    opener = table.match.state.to_act[0]
    while not table.match.outputs:
        state = table.match.state
        await act(tg, users[state.controller(state.to_act[0])], choose(state, intent, opener))
    await tg.settled()


async def test_an_idle_player_is_pinged_a_fast_one_gets_edits(tg: FakeTelegram,
                                                               tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, group, hub, table):

        def to_act() -> User:
            state = table.match.state
            return users[state.controller(state.to_act[0])]

        async def play_one() -> None:
            await act(tg, to_act(), choose(table.match.state, "raspasy", -1))

        for _ in range(3):  # everyone presses once
            await play_one()
        fast = to_act()  # pressed a few seconds ago: his turn comes as an edit
        panels = {u.id: tg.last_message(u).message_id for u in users}
        assert tg.last_message(fast).buttons
        await play_one()
        while to_act() is not fast:  # his turn comes back while he plays quickly
            await play_one()
        assert tg.last_message(fast).message_id == panels[fast.id]
        await tg.settled(group)
        shown = next(m for m in tg.messages(group)
                     if m.message_id == hub.presenter.book.slot(table, None).message_id)
        mentions = [e for e in shown.current.content.entities if e["type"] == "text_mention"]
        assert [e["user"]["id"] for e in mentions] == [fast.id]  # the group's turn line links

        # Whoever has not pressed for over a minute gets his turn as a new message (a ping).
        for _ in range(3):
            actor = to_act()
            for user in users:
                if user is not actor:
                    table.active_at[user.id] -= 120  # his last press: minutes ago
            old = {u.id: tg.last_message(u) for u in users}
            await play_one()
            pinged = to_act()
            if pinged is not actor:
                break
        assert pinged is not actor
        assert tg.last_message(pinged).message_id != old[pinged.id].message_id
        assert old[pinged.id].deleted  # the old panel went: one panel, at the bottom


async def test_the_last_trick_and_the_result_stay_after_the_last_card(tg: FakeTelegram,
                                                                      tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, group, hub, table):
        await _first_deal(tg, hub, users, table, "raspasy")
        # The player to act sees the deal's end with his turn (and the one who played the last
        # card with his buttons' going); one who waits keeps an older moment of the deal,
        # without buttons, until his turn in the next deal.
        acting = table.acting_users()
        for user in users:
            panel = tg.last_message(user)
            if user.id in acting:
                assert "🔚 Deal 1 is over." in panel.text and "Last trick: " in panel.text
                assert " → " in panel.text and "Raspasy:" in panel.text  # the deal's result
            else:  # no turn buttons (the deal's end brings its analysis button)
                assert all(b["text"] == "🔍 Analysis" for b in panel.buttons), panel.buttons
                assert "🔚 Deal 1 is over." in panel.text or "· deal 1\n" in panel.text
        table_message = next(m for m in tg.messages(group)
                             if m.message_id == hub.presenter.book.slot(table, None).message_id)
        assert "🔚 Deal 1 is over." in table_message.text and "Last trick: " in table_message.text
        result = next(m for m in tg.messages(group) if m.text.startswith("Deal 1"))
        assert "Raspasy:" in result.text
        # The next deal's first action makes room: the end of deal 1 is gone from the panel of
        # the one to act (the others' wait for their turn, or the round of bids' end: the
        # actor's too, with his bids, refused as out of date if pressed).
        state = table.match.state
        actor = users[state.controller(state.to_act[0])]
        await act(tg, actor, choose(state, "raspasy", -1))
        await tg.settled()
        assert all("Deal 1 is over" not in tg.last_message(u).text
                   for u in users if u.id in table.acting_users())


async def test_finished_votes_and_menus_lose_their_buttons(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    users, group = _players(tg)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        for user in users:
            tg.press_start(user)
        menu = await command(tg, users[0], group, "/newgame")
        answer = await tg.press(users[1], menu, text="Preferans")  # not his menu
        assert answer.show_alert and "/newgame" in answer.text
        assert not hub.services.tables.values()
        await tg.press(users[0], menu, text="Preferans")
        await tg.idle()
        assert menu.buttons == []
        (table,) = hub.services.tables.values()
        assert table.row.creator_id == users[0].id  # whoever sent /newgame owns the table
        lobby = tg.last_message(group)
        for user in users[1:]:
            await tg.press(user, lobby, text="✋ Join")
            await tg.idle()
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        vote = await command(tg, users[0], group, "/abort")
        assert vote.buttons
        await tg.press(users[1], vote, text="❌ Refuse")
        await tg.idle()
        assert vote.buttons == []  # the vote is over: no buttons left, and it says how
        assert vote.text.endswith("❌ Bob refused: the game goes on.")
        again = await command(tg, users[2], group, "/newgame")
        assert "already has a Preferans table" in again.text and again.reply_to is not None


async def test_counts_of_one_read_naturally(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob")]
    users.append(tg.add_user("Вера", language_code="ru"))
    group = tg.add_group("Cards", users[:2])
    ru_group = tg.add_group("Карты", users[2:])
    async with running_bot(tg, tmp_path / "bot.db"):
        for user in users:
            tg.press_start(user)
        await tg.idle()
        lobby = await command(tg, users[0], group, "/seep")
        assert "a match of 1 bazzi ·" not in lobby.text and "a match of 1 bazzi" in lobby.text
        assert "1 bazzis" not in lobby.text
        lobby = await command(tg, users[2], ru_group, "/seep")
        assert "матч до 1 бази" in lobby.text


async def test_russian_panels_write_the_cards_as_russian_players_do(tg: FakeTelegram,
                                                                   tmp_path: Path) -> None:
    users = [tg.add_user(n, language_code="ru") for n in ("Аня", "Боря", "Вера")]
    group = tg.add_group("Карты", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        for user in users:
            tg.press_start(user)
        await command(tg, users[0], group, "/pref")
        for user in users[1:]:
            await tg.press(user, tg.last_message(group), text="✋ Сесть")
            await tg.settled(group)
        await tg.press(users[0], tg.last_message(group), text="▶ Начать")
        await tg.settled()
        (table,) = hub.services.tables.values()
        hands = [line for user in users for line in tg.last_message(user).text.splitlines()
                 if line[:1] in "♠♣♦♥"]
        assert len(hands) >= 3
        shown = {rank for line in hands for rank in line.split()[1:]}
        assert shown <= {"7", "8", "9", "10", "В", "Д", "К", "Т"}  # never J Q K A
        held = {c for seat in range(3) for c in table.match.state.view(seat)["hand"]}
        faces = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
        assert {faces[c[0]] for c in held if c[0] in faces} <= shown
        for _ in range(5):  # everyone bids up the ladder until no trumps are offered
            bidder = acting(tg, users)[0]
            labels = [b["text"] for b in tg.last_message(bidder).buttons]
            if "6 б/к" in labels:
                break
            assert not any("NT" in label for label in labels)
            await tg.press(bidder, tg.last_message(bidder), text=labels[1])
            await tg.settled()
        assert "6 б/к" in labels


async def test_the_lobby_and_rules_list_only_the_unusual_conventions(tg: FakeTelegram,
                                                                    tmp_path: Path) -> None:
    users, group = _players(tg)
    async with running_bot(tg, tmp_path / "bot.db"):
        for user in users:
            tg.press_start(user)
        lobby = await command(tg, users[0], group, "/pref")
        assert "Failed whist:" not in lobby.text and "Talon premium:" not in lobby.text
        assert "Every other convention as usual (⚙ Conventions shows them all)." in lobby.text
        assert len(lobby.text.splitlines()) < 10  # not a wall of 27 conventions
        await tg.press(users[0], lobby, text="⚙ Conventions")
        await tg.settled(group)
        button = next(b for b in lobby.buttons if b["text"].startswith("Failed whist: "))
        await tg.press(users[0], lobby, data=button["callback_data"])
        await tg.settled(group)
        (changed,) = [line for line in lobby.text.splitlines() if line.startswith("Failed whist")]
        assert changed != button["text"]  # the one convention that differs is listed
        rules = await command(tg, users[1], group, "/rules")
        assert changed in rules.text and "Talon premium:" not in rules.text
        assert "/rules all" in rules.text
        every = await command(tg, users[1], group, "/rules all")
        assert changed in every.text and "Talon premium:" in every.text
        assert len(every.text.splitlines()) > 20


async def test_the_game_begins_with_a_link_to_the_private_chat(tg: FakeTelegram,
                                                              tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, group, hub, table):
        begins = next(m for m in tg.messages(group) if m.text.startswith("The game begins."))
        link = f"https://t.me/{hub.presenter.username}?start=t{table.id}"
        assert [e["url"] for e in begins.current.content.entities
                if e["type"] == "text_link"] == [link]
        assert [b.get("url") for b in begins.buttons] == [link]
        shown = next(m for m in tg.messages(group)
                     if m.message_id == hub.presenter.book.slot(table, None).message_id)
        assert [b.get("url") for b in shown.buttons] == [link]  # the table links there too
        tg.send(users[1], tg.private_chat(users[1]), f"/start t{table.id}")  # the link's /start
        await tg.settled()
        assert "Your hand" in tg.last_message(users[1]).text  # the link leads to his cards


async def test_a_misere_winner_is_not_asked_for_his_one_contract(tg: FakeTelegram,
                                                                 tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, _group, hub, table):
        state = table.match.state
        opener = state.to_act[0]
        declarer = users[state.controller(opener)]
        while table.match.state.phase in ("bidding", "discard"):
            state = table.match.state
            await act(tg, users[state.controller(state.to_act[0])],
                      choose(state, "miser", opener))
        await tg.settled()
        state = table.match.state
        assert state.contract == "miser" and state.phase == "play"  # named without a tap
        panel = tg.last_message(declarer)
        assert "✔ misère was your only choice: it is made for you." in panel.text
        assert not any("contract:" in b.get("callback_data", "") for b in panel.buttons)
        stored = await hub.services.store.log.record(table.id)  # stored as his, like a tap
        assert {"seat": opener, "contract": "miser"} in stored["deals"][0]["actions"]


async def test_the_result_explains_its_numbers_and_gives_the_running_totals(
        tg: FakeTelegram, tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, group, hub, table):
        await _first_deal(tg, hub, users, table, "whist_and_pass")
        result = next(m for m in tg.messages(group) if m.text.startswith("Deal 1"))
        notes = table.match.sheet.notes[0]
        assert notes and result.text.count("(") >= len(notes)  # a reason for every number
        assert "tricks whisted)" in result.text or "trick whisted)" in result.text
        assert "(the contract)" in result.text or "short)" in result.text
        report = table.match.report()
        assert "After deal 1 (a balance is the settlement if the game stopped now):" in result.text
        for seat, name in enumerate(("Ann", "Bob", "Cid")):
            pool, mountain = report["sheet"]["pool"][seat], report["sheet"]["mountain"][seat]
            balance = report["settlement"][seat]
            assert (f"{name}: pool {pool}/10 · mountain {mountain} · balance "
                    f"{f'{balance:+g}' if balance else 0}") in result.text


async def test_the_table_message_is_pinned_where_the_bot_may_pin(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users, supergroup=True, bot_status="administrator")
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.settled()
        (table,) = hub.services.tables.values()
        message_id = hub.presenter.book.slot(table, None).message_id
        assert group.pinned == [message_id]
        vote = await command(tg, users[0], group, "/abort")
        for user in users[1:]:
            await tg.press(user, vote, text="✅ Agree")
            await tg.idle()
        await tg.settled()
        assert group.pinned == []  # the game is over: its message is unpinned
        assert vote.buttons == [] and vote.text.endswith("✅ Everyone agreed.")


async def test_an_unpinned_table_message_comes_back_when_the_chat_ran_on(tg: FakeTelegram,
                                                                         tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, group, hub, table):
        first = hub.presenter.book.slot(table, None).message_id
        shown = next(m for m in tg.messages(group) if m.message_id == first)
        assert group.pinned == []  # the bot may not pin in this group
        for _ in range(SCROLLED):  # the chat runs on below the table message
            await command(tg, users[1], group, "/rules")
        await _first_deal(tg, hub, users, table, "raspasy")
        again = hub.presenter.book.slot(table, None).message_id
        result = next(m for m in tg.messages(group) if m.text.startswith("Deal 1"))
        assert again > result.message_id  # the next deal's table message is below its result
        assert shown.deleted  # one table message: the old one went


async def _game_aborted(tg: FakeTelegram, users: list[User], group: Chat) -> None:
    """A game opened, started and abandoned by the players' vote."""
    tg.send(users[0], group, "/newgame preferans")
    await tg.settled(group)
    for user in users[1:]:
        await tg.press(user, tg.last_message(group), text="✋ Join")
        await tg.settled(group)
    await tg.press(users[0], tg.last_message(group), text="▶ Start")
    await tg.settled()
    vote = await command(tg, users[0], group, "/abort")
    for user in users[1:]:
        await tg.press(user, vote, text="✅ Agree")
        await tg.idle()
    await tg.settled()


async def test_a_group_where_the_bot_may_not_pin_is_not_tried_again(tg: FakeTelegram,
                                                                    tmp_path: Path) -> None:
    """Refused once, a pin is not tried again in the group, not after a restart either
    (remembered in storage), until the bot is made an administrator there."""
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users, supergroup=True)  # the bot a member: may not pin
    for user in users:
        tg.press_start(user)

    def pins() -> int:
        return len(tg.calls_for("pinChatMessage", group))

    async with running_bot(tg, tmp_path / "bot.db"):
        await _game_aborted(tg, users, group)
        assert pins() == 1 and group.pinned == []
    async with running_bot(tg, tmp_path / "bot.db"):
        for _ in range(2):
            await _game_aborted(tg, users, group)
        assert pins() == 1  # not tried again
        tg.world.my_chat_member(group, users[0], "administrator")
        await tg.idle()
        await _game_aborted(tg, users, group)
        assert pins() == 2
