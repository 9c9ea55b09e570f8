"""Long games (issue 9): table settings during a game, substitute robots, replacing a
player, the timer's bookkeeping; every refusal changes nothing."""

import pytest

from bot.service import records as stored
from engine.records import new_match
from storage import NotFound, SeatError, Storage, WrongStatus
from storage.rows import Entry, TableRow
from tests.storage.play import play_deals, started_table

CHAT = -1001


async def test_settings_change_in_the_lobby_and_during_the_game_not_after(store: Storage) -> None:
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    changed = await store.tables.update_settings(table.id, {"turn_time": 3600, "timeout": "robot"})
    assert changed.settings == {"turn_time": 3600, "timeout": "robot"}
    assert (await store.tables.get_table(table.id)).settings == changed.settings
    await store.tables.set_status(table.id, "aborted")
    with pytest.raises(WrongStatus):
        await store.tables.update_settings(table.id, {"turn_time": 0})
    assert (await store.tables.get_table(table.id)).settings == changed.settings


async def test_a_robot_stands_in_for_a_seat_until_told_to_stop(store: Storage) -> None:
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    assert table.robot_seats() == frozenset()
    table = await store.tables.set_robot(table.id, 1, True)
    assert table.robot_seats() == {1}
    assert (await stored.load(store, table.id)).row.robot_seats() == {1}
    table = await store.tables.set_robot(table.id, 1, False)
    assert table.robot_seats() == frozenset()


async def test_robot_moves_are_marked_in_history_and_stats(store: Storage) -> None:
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    await play_deals(store, table, None, "robots", 2, robot_seats=[2])
    deals = await store.stats.recent_deals(CHAT, 10)
    assert len(deals) == 2 and all(d.robot_seats == (2,) for d in deals)
    stats = {s.game: s for s in await store.stats.user_stats(3)}
    assert stats["preferans"].robot_deals == 2
    assert (await store.stats.user_stats(1))[0].robot_deals == 0


async def test_replacing_a_player_keeps_the_names_and_forgets_the_panel(store: Storage) -> None:
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    await store.chats.save_user(4, display_name="Dan")
    await store.tables.set_shown(table.id, 2, 77, "d2")
    await store.tables.set_robot(table.id, 2, True)
    for bad_seat, user, error in ((2, 1, SeatError), (2, 99, NotFound)):
        with pytest.raises(error):
            await store.tables.replace_player(table.id, bad_seat, user)
    replaced = await store.tables.replace_player(table.id, 2, 4)
    seat = next(s for s in replaced.seats if s.seat == 2)
    assert (seat.user_id, seat.panel_message_id, seat.robot) == (4, None, False)
    assert replaced.players == ["U1", "U2", "U3"]
    match = await play_deals(store, replaced, None, "after", 1)
    assert match.version == (await store.tables.get_table(table.id)).last_seq


async def test_picks_are_kept_until_the_seat_acts_or_is_replaced(store: Storage) -> None:
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    await store.chats.save_user(4, display_name="Dan")

    def picks(row: TableRow) -> list[frozenset[str]]:
        return [s.picks for s in row.seats]

    await store.tables.set_picks(table.id, 0, {"7S"})
    await store.tables.set_picks(table.id, 1, {"8H", "9D"})
    await store.tables.set_picks(table.id, 2, {"AC"})
    assert picks(await store.tables.get_table(table.id)) == [{"7S"}, {"8H", "9D"}, {"AC"}]
    assert picks(await store.tables.replace_player(table.id, 2, 4)) == [{"7S"}, {"8H", "9D"},
                                                                       set()]
    match = new_match(table.header())
    match.start_deal(seed=1)
    await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]))
    seat = match.state.to_act[0]
    action = match.state.legal_actions(seat)[0]
    match.apply(seat, action)
    await store.log.append(table.id, match.version,
                           Entry.action(match.spec.encode_action(seat, action)))
    expected = [{"7S"}, {"8H", "9D"}, set()]
    expected[seat] = set()  # the action ended its seat's picks, and only those
    assert picks(await store.tables.get_table(table.id)) == expected
    assert picks(await store.tables.set_picks(table.id, 1, ()))[1] == set()


async def test_robot_and_replacement_only_in_a_game(store: Storage) -> None:
    await store.chats.save_user(1, display_name="Ann")
    await store.chats.save_user(2, display_name="Bob")
    lobby = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules={}, seat_count=3)
    lobby = await store.tables.seat_user(lobby.id, 1)
    with pytest.raises(WrongStatus):
        await store.tables.set_robot(lobby.id, 0, True)
    with pytest.raises(WrongStatus):
        await store.tables.replace_player(lobby.id, 0, 2)
    assert (await store.tables.get_table(lobby.id)).seats == lobby.seats


async def test_the_timer_is_kept_and_dropped_by_a_pause(store: Storage) -> None:
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    match = await play_deals(store, table, None, "timer", 0)
    match.start_deal(seed=1)
    await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]))
    timed = await store.tables.update_table(table.id, timer_deadline=1000.5,
                                     timer_version=match.version, timer_nudged=True)
    assert (timed.timer_deadline, timed.timer_version, timed.timer_nudged) == (
        1000.5, match.version, True)
    restored = (await stored.load(store, table.id)).row
    assert (restored.timer_deadline, restored.timer_nudged) == (1000.5, True)
    paused = await store.tables.set_status(table.id, "paused")
    assert paused.timer_deadline is None and paused.timer_version == match.version
