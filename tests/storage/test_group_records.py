"""What the bot keeps of a group's messages and names so that a restart finds them again
(issue 17): the pinned table message, a vote's question, a group's title and username. On
SQLite and on PostgreSQL."""

from storage import Storage
from tests.storage.play import started_table

OLD, NEW = -100, -1001234567890


async def test_the_pinned_message_is_kept_until_unpinned_after_the_game(store: Storage) -> None:
    table = await started_table(store, OLD, "preferans", {}, [1, 2, 3])
    assert table.pinned_message_id is None
    await store.tables.set_pinned(table.id, 42)
    assert (await store.tables.get_table(table.id)).pinned_message_id == 42
    assert await store.tables.pinned_closed() == []  # the game is on: not one to unpin
    await store.tables.finish_game(table.id, [0, 0, 0])
    assert [(t.id, t.pinned_message_id) for t in await store.tables.pinned_closed()] == [
        (table.id, 42)]
    await store.tables.set_pinned(table.id, None)
    assert await store.tables.pinned_closed() == []


async def test_a_vote_keeps_the_question_its_message_asks(store: Storage) -> None:
    table = await started_table(store, OLD, "preferans", {}, [1, 2, 3])
    vote = await store.votes.open_vote(table.id, "abort", 1, [2, 3], {})
    assert (vote.message_id, vote.question) == (None, None)
    await store.votes.set_message(vote.id, 7, "Ann wants to <b>abandon</b> the game.")
    closed = await store.votes.close(vote.id, "refused")
    assert (closed.message_id, closed.question) == (7, "Ann wants to <b>abandon</b> the game.")


async def test_a_group_keeps_its_title_and_username_and_its_title_moves_along(
        store: Storage) -> None:
    chat = await store.chats.save_chat(OLD, language="ru", title="Карты")
    assert (chat.title, chat.username, chat.language) == ("Карты", None, "ru")
    assert await store.chats.migrate_chat(OLD, NEW)
    moved = await store.chats.get_chat(NEW)
    assert moved is not None and (moved.title, moved.username) == ("Карты", None)
    public = await store.chats.save_chat(NEW, username="karty_club")
    assert (public.title, public.username, public.language) == ("Карты", "karty_club", "ru")
