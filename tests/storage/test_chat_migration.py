"""Group -> supergroup: the chat's settings and every table move to the new id."""

import pytest

from bot.service import ratings
from bot.service import records as stored
from storage import Storage, TableExists
from storage.rows import Standing
from tests.storage.play import play_deals, started_table

OLD, NEW = -100, -1001234567890


async def board(store: Storage, chat_id: int) -> list[Standing]:
    return await store.ratings.leaderboard(chat_id, "preferans", min_games=1,
                                           caution=ratings.CAUTION, limit=10)


async def test_migration_moves_settings_tables_history_and_stats(store: Storage) -> None:
    await store.chats.save_chat(OLD, language="ru", time_zone="Europe/Moscow")
    done = await started_table(store, OLD, "preferans", {"pool": 2}, [1, 2, 3])
    await play_deals(store, done, None, seed=1, deals=80)
    assert await ratings.rate(store, done.id)
    live = await started_table(store, OLD, "preferans", {}, [1, 2, 3])
    await play_deals(store, live, None, seed=2, deals=1)
    games_before = await store.stats.recent_games(OLD)
    deals_before = await store.stats.recent_deals(OLD, 100)
    board_before = await board(store, OLD)
    assert board_before

    assert await store.chats.migrate_chat(OLD, NEW)
    assert await store.chats.get_chat(OLD) is None
    chat = await store.chats.get_chat(NEW)
    assert chat is not None and (chat.language, chat.time_zone) == ("ru", "Europe/Moscow")
    table = await store.tables.open_table(NEW)
    assert table is not None and table.id == live.id and table.chat_id == NEW
    assert await store.tables.open_table(OLD) is None
    assert (await store.tables.get_table(done.id)).chat_id == NEW
    assert await store.stats.recent_games(NEW) == games_before
    assert await store.stats.recent_deals(NEW, 100) == deals_before
    assert await board(store, NEW) == board_before
    assert await board(store, OLD) == []
    assert await store.stats.recent_games(OLD) == []
    assert await store.stats.recent_deals(OLD, 100) == []
    match = await stored.load_match(store, live.id)
    await play_deals(store, table, match, seed=3, deals=1)  # the game goes on under the new id

    assert not await store.chats.migrate_chat(OLD, NEW)  # reported again from the other side


async def test_migration_into_a_chat_the_bot_already_saw(store: Storage) -> None:
    """The supergroup may have a row already (a message came first); the group's settings win."""
    await store.chats.save_chat(OLD, language="ru")
    await store.chats.save_chat(NEW, language="en")
    live = await started_table(store, OLD, "preferans", {}, [1, 2, 3])
    assert await store.chats.migrate_chat(OLD, NEW)
    chat = await store.chats.get_chat(NEW)
    assert chat is not None and chat.language == "ru"
    assert (await store.tables.get_table(live.id)).chat_id == NEW


async def test_two_open_tables_cannot_merge(store: Storage) -> None:
    old = await started_table(store, OLD, "preferans", {}, [1, 2, 3])
    new = await started_table(store, NEW, "joker", {}, [4, 5, 6, 7])
    with pytest.raises(TableExists):
        await store.chats.migrate_chat(OLD, NEW)
    assert (await store.tables.get_table(old.id)).chat_id == OLD
    assert (await store.tables.get_table(new.id)).chat_id == NEW
    assert await store.chats.get_chat(OLD) is not None
