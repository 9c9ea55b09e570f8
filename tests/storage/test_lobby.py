"""Chats, users, lobbies and table bookkeeping: every refusal changes nothing."""

import asyncio

import pytest

from engine.preferans.rules import Rules
from storage import BadInput, NotFound, SeatError, Storage, TableExists, WrongStatus

CHAT = -1001


async def _users(store: Storage, *ids: int) -> None:
    for user_id in ids:
        await store.chats.save_user(user_id, display_name=f"U{user_id}")


async def test_chat_settings_are_created_changed_and_validated(store: Storage) -> None:
    chat = await store.chats.save_chat(CHAT, language="ru", time_zone="Europe/Moscow",
                                 quiet_hours="23:00-08:00", table_defaults={"pool": 20})
    assert (chat.language, chat.time_zone, chat.quiet_hours) == (
        "ru", "Europe/Moscow", "23:00-08:00")
    assert chat.table_defaults == {"pool": 20}
    for bad in ({"time_zone": "Mars/Olympus"}, {"quiet_hours": "25:00-08:00"},
                {"table_defaults": ["pool"]}):
        with pytest.raises(BadInput):
            await store.chats.save_chat(CHAT, language="en", **bad)
    assert await store.chats.get_chat(CHAT) == chat
    cleared = await store.chats.save_chat(CHAT, quiet_hours=None)
    assert cleared.quiet_hours is None and cleared.language == "ru"
    assert await store.chats.get_chat(42) is None


async def test_users_need_a_name_when_new_and_keep_what_is_not_changed(store: Storage) -> None:
    with pytest.raises(NotFound):
        await store.chats.save_user(7, language="ru")
    with pytest.raises(BadInput):
        await store.chats.save_user(7, display_name="  ")
    assert await store.chats.get_user(7) is None
    await store.chats.save_user(7, display_name="Ann", username="ann")
    await store.chats.save_user(7, language="ru", has_started_bot=True)
    user = await store.chats.save_user(7, display_name="Anna")
    assert (user.display_name, user.username, user.language, user.has_started_bot) == (
        "Anna", "ann", "ru", True)


async def test_a_new_user_seen_by_two_workers_at_once_is_stored_once(location: str) -> None:
    """His /start and his /newgame in a group, on two lanes of two workers: neither fails."""
    workers = [await Storage.open(location) for _ in range(2)]
    try:
        for user_id in range(10, 30):  # new users, each seen by both at once
            await asyncio.gather(
                workers[0].chats.save_user(user_id, display_name="Ann", has_started_bot=True),
                workers[1].chats.save_user(user_id, display_name="Ann", username="ann"))
            user = await workers[0].chats.get_user(user_id)
            assert user is not None and (user.username, user.has_started_bot) == ("ann", True)
    finally:
        for worker in workers:
            await worker.close()


async def test_users_and_chats_are_read_together_as_stored(store: Storage) -> None:
    chat = await store.chats.save_chat(CHAT, language="uk", time_zone="Europe/Kyiv",
                                       table_defaults={"pool": 30}, title="Club",
                                       username="club")
    await store.chats.save_chat(-1002, language="ka")
    await store.chats.save_user(7, display_name="Ann", username="ann")
    user = await store.chats.save_user(7, language="ru", has_started_bot=True)
    other = await store.chats.save_user(8, display_name="Bob")
    users, chats = await store.chats.get_many({7, 8, 9}, {CHAT, -5})
    assert users == {7: user, 8: other} and chats == {CHAT: chat}
    assert await store.chats.get_many({8}, ()) == ({8: other}, {})
    assert await store.chats.get_many((), {CHAT}) == ({}, {CHAT: chat})
    assert await store.chats.get_many((), ()) == ({}, {})


async def test_one_open_table_per_chat(store: Storage) -> None:
    await _users(store, 1)
    first = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=3)
    assert first.status == "lobby" and (await store.chats.get_chat(CHAT)) is not None
    with pytest.raises(TableExists) as caught:
        await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=3)
    assert caught.value.table_id == first.id
    await store.tables.set_status(first.id, "aborted")
    second = await store.tables.create_table(CHAT, "joker", creator_id=1, rules={}, seat_count=4)
    assert await store.tables.open_table(CHAT) == second
    assert [t.id for t in await store.tables.open_tables()] == [second.id]


async def test_bad_lobby_input_is_refused(store: Storage) -> None:
    await _users(store, 1)
    with pytest.raises(NotFound):
        await store.tables.create_table(CHAT, "preferans", creator_id=99, rules={}, seat_count=3)
    with pytest.raises(BadInput):
        await store.tables.create_table(CHAT, "preferans", creator_id=1, rules=[], seat_count=3)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=0)
    assert await store.tables.open_table(CHAT) is None


async def test_seating_unseating_and_lobby_changes(store: Storage) -> None:
    await _users(store, 1, 2, 3, 4)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=3)
    await store.tables.seat_user(table.id, 1)
    await store.tables.seat_user(table.id, 2, seat=2)
    table = await store.tables.seat_user(table.id, 3)
    assert [(s.seat, s.user_id) for s in table.seats] == [(0, 1), (1, 3), (2, 2)]
    with pytest.raises(SeatError):
        await store.tables.seat_user(table.id, 4)  # full
    with pytest.raises(SeatError):
        await store.tables.seat_user(table.id, 1)  # already seated
    table = await store.tables.unseat_user(table.id, 3)
    with pytest.raises(SeatError):
        await store.tables.unseat_user(table.id, 3)
    with pytest.raises(SeatError):
        await store.tables.seat_user(table.id, 4, seat=2)  # taken
    with pytest.raises(SeatError):
        await store.tables.seat_user(table.id, 4, seat=3)  # beyond the table
    with pytest.raises(SeatError):
        await store.tables.update_lobby(table.id, seat_count=2)  # seat 2 is taken
    table = await store.tables.update_lobby(table.id, rules={"variant": "rostov", "pool": 4},
                                     settings={"timeout": 3600}, seat_count=4)
    assert (table.rules, table.settings, table.seat_count) == (
        {"variant": "rostov", "pool": 4}, {"timeout": 3600}, 4)
    assert table.user_of(2) == 2 and table.seat_of(1) == 0 and table.user_of(1) is None


async def test_start_needs_every_seat_and_fixes_names_and_rules(store: Storage) -> None:
    """The rules the game completed are stored as given (the engine checks them before:
    tests/service/test_lobby.py); storage knows games only as data."""
    await _users(store, 1, 2, 3)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1,
                                            rules={"variant": "peter", "pool": 4}, seat_count=3)
    await store.tables.seat_user(table.id, 1)
    await store.tables.seat_user(table.id, 2)
    complete = Rules.from_dict({"variant": "peter", "pool": 4}).to_dict()
    with pytest.raises(SeatError):
        await store.tables.start_game(table.id, rules=complete)
    assert (await store.tables.get_table(table.id)).status == "lobby"
    await store.tables.seat_user(table.id, 3)
    started = await store.tables.start_game(table.id, rules=complete)
    assert started.status == "playing" and started.players == ["U1", "U2", "U3"]
    assert started.rules == complete
    for change in (store.tables.seat_user(table.id, 1),
                   store.tables.update_lobby(table.id, rules={}),
                   store.tables.start_game(table.id)):
        with pytest.raises(WrongStatus):
            await change


async def test_status_changes_follow_the_allowed_paths(store: Storage) -> None:
    await _users(store, 1)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=1)
    with pytest.raises(WrongStatus):
        await store.tables.set_status(table.id, "paused")
    with pytest.raises(WrongStatus):
        await store.tables.finish_game(table.id, [0])
    aborted = await store.tables.set_status(table.id, "aborted")
    assert aborted.status == "aborted" and aborted.finished_at is not None
    with pytest.raises(WrongStatus):
        await store.tables.set_status(table.id, "playing")
    with pytest.raises(NotFound):
        await store.tables.set_status(999, "aborted")


async def test_table_bookkeeping(store: Storage) -> None:
    await _users(store, 1, 2)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=2)
    await store.tables.seat_user(table.id, 1)
    table = await store.tables.update_table(table.id, attention="player U2 blocked the bot",
                                     table_message_id=555, timer_deadline=1.5e9, timer_version=3)
    assert table.needs_attention and table.attention_reason == "player U2 blocked the bot"
    assert (table.table_message_id, table.timer_deadline, table.timer_version) == (555, 1.5e9, 3)
    table = await store.tables.update_table(table.id, attention=None, timer_deadline=None)
    assert not table.needs_attention and table.attention_reason is None
    assert table.timer_deadline is None and table.table_message_id == 555
    await store.tables.set_shown(table.id, 0, 77, "d0")
    with pytest.raises(NotFound):
        await store.tables.set_shown(table.id, 1, 78, "d1")
    seat = (await store.tables.get_table(table.id)).seats[0]
    assert (seat.panel_message_id, seat.shown_digest) == (77, "d0")


async def test_guests_sit_by_name_and_play_without_a_user(store: Storage) -> None:
    """Scorekeeper mode: players typed by name sit beside Telegram users."""
    await _users(store, 1)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=3)
    await store.tables.seat_guest(table.id, "  Bob ", seat=2)
    for bad in ("", " ", "x" * 65):
        with pytest.raises(BadInput):
            await store.tables.seat_guest(table.id, bad)
    with pytest.raises(SeatError):
        await store.tables.seat_guest(table.id, "bob")  # the same name twice
    await store.tables.seat_user(table.id, 1)
    table = await store.tables.seat_guest(table.id, "Cid")
    assert [(s.seat, s.user_id, s.guest_name) for s in table.seats] == [
        (0, 1, None), (1, None, "Cid"), (2, None, "Bob")]
    table = await store.tables.free_seat(table.id, 1)
    with pytest.raises(SeatError):
        await store.tables.free_seat(table.id, 1)
    await store.tables.seat_guest(table.id, "Dan")
    started = await store.tables.start_game(table.id)
    assert started.players == ["U1", "Dan", "Bob"]
    assert started.user_of(1) is None


async def test_only_a_drawing_of_the_table_as_stored_counts_as_shown(store: Storage) -> None:
    """A drawing the table changed since (an overtaken worker's), or one from a clock ahead,
    is not taken as shown, nor does it undo a newer one's: a restart redraws only what the
    messages do not show."""
    await _users(store, 1)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={},
                                            seat_count=3)
    changed = await store.tables.update_table(table.id, timer_deadline=123.0)
    assert changed.updated_at != table.updated_at
    for drawn in (table.updated_at, changed.updated_at + 5):
        assert not await store.tables.mark_shown(table.id, drawn)
        assert not (await store.tables.get_table(table.id)).shown
    assert await store.tables.mark_shown(table.id, changed.updated_at)
    assert not await store.tables.mark_shown(table.id, table.updated_at)
    assert (await store.tables.get_table(table.id)).shown


async def test_a_message_stored_with_the_drawing_all_show_marks_the_table_shown(
        store: Storage) -> None:
    """What a message is and shows is stored with, at once, the table marked as shown by the
    drawing all its messages show then: only if it is the table as stored."""
    await _users(store, 1)
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={},
                                            seat_count=3)
    table = await store.tables.seat_user(table.id, 1)
    assert not await store.tables.set_shown(table.id, 0, 70, "d0", drawn=table.updated_at + 5)
    assert await store.tables.set_shown(table.id, 0, 71, "d1", drawn=table.updated_at)
    row = await store.tables.get_table(table.id)
    assert row.shown and (row.seats[0].panel_message_id, row.seats[0].shown_digest) == (71, "d1")
    changed = await store.tables.update_table(table.id, timer_deadline=123.0)
    assert not await store.tables.set_shown(table.id, None, 72, "g", drawn=table.updated_at)
    row = await store.tables.get_table(table.id)
    assert (row.table_message_id, row.shown_digest, row.shown) == (72, "g", False)
    assert await store.tables.set_shown(table.id, None, 73, "g2", drawn=changed.updated_at)
    assert not await store.tables.set_shown(table.id, 0, 74, "d2")  # nothing drawn: unmarked
    assert (await store.tables.get_table(table.id)).shown
