"""Restore at start: every active match rebuilt; a broken one marked, the others untouched."""

import json
import sqlite3

from bot.service import records as stored
from bot.service.records import REPLAY_FAILED
from storage import Storage
from tests.storage.play import play_deals, started_table


def _tamper(db_path: str, sql: str, params: tuple) -> None:
    with sqlite3.connect(db_path, isolation_level=None) as raw:
        raw.execute(sql, params)


async def _tables(store: Storage) -> dict:
    """A lobby, two playing games, a paused one and a finished one; their live matches."""
    await store.chats.save_user(9, display_name="Lobby")
    lobby = await store.tables.create_table(-9, "preferans", creator_id=9, rules={}, seat_count=3)
    live = {}
    for chat, game, users in ((-1, "preferans", [1, 2, 3]), (-2, "joker", [1, 2, 3, 4]),
                              (-3, "preferans", [4, 5, 6, 7])):
        rules = {"players": 4} if chat == -3 else {}
        table = await started_table(store, chat, game, rules, users)
        live[table.id] = await play_deals(store, table, None, seed=chat, deals=2)
    await store.tables.set_status(min(live) + 1, "paused")
    done = await started_table(store, -4, "preferans", {"pool": 2}, [1, 2, 3])
    assert (await play_deals(store, done, None, seed=4, deals=60)).over
    return {"lobby": lobby.id, "live": live}


async def test_restore_rebuilds_every_active_match(db_path: str) -> None:
    async with await Storage.open(db_path) as store:
        made = await _tables(store)
    async with await Storage.open(db_path) as store:
        report = await stored.restore(store)
    live = made["live"]
    assert report.failed == {}
    assert set(report.matches) == set(live)
    assert set(report.tables) == set(live) | {made["lobby"]}
    for table_id, match in live.items():
        restored = report.matches[table_id]
        assert restored.record() == match.record() and restored.report() == match.report()
        assert restored.version == match.version == report.tables[table_id].last_seq


async def test_a_broken_record_is_marked_and_the_others_restore(db_path: str) -> None:
    async with await Storage.open(db_path) as store:
        live = (await _tables(store))["live"]
    broken, missing, *fine = sorted(live)
    with sqlite3.connect(db_path) as raw:
        seq, payload = raw.execute(
            "SELECT seq, payload FROM log_entries WHERE table_id = ? AND kind = 'action'"
            " ORDER BY seq LIMIT 1", (broken,)).fetchone()
    bad = {**json.loads(payload)}
    bad["bid"] = "11NT"  # as if a rules fix had made this bid illegal
    _tamper(db_path, "UPDATE log_entries SET payload = ? WHERE table_id = ? AND seq = ?",
            (json.dumps(bad), broken, seq))
    _tamper(db_path, "DELETE FROM log_entries WHERE table_id = ? AND seq = "
            "(SELECT MAX(seq) FROM log_entries WHERE table_id = ?)", (missing, missing))
    async with await Storage.open(db_path) as store:
        report = await stored.restore(store)
        assert set(report.failed) == {broken, missing}
        assert "deal 0, action 0" in report.failed[broken]
        assert "the table says" in report.failed[missing]
        assert set(report.matches) == set(fine)
        for table_id in fine:
            assert report.matches[table_id].record() == live[table_id].record()
            assert not report.tables[table_id].needs_attention
        for table_id in (broken, missing):
            table = await store.tables.get_table(table_id)
            assert table.needs_attention and table.attention_reason is not None
            assert table.attention_reason.startswith(REPLAY_FAILED)
            assert table.status in ("playing", "paused")  # the game itself is kept as it is
            assert report.tables[table_id] == table

    _tamper(db_path, "UPDATE log_entries SET payload = ? WHERE table_id = ? AND seq = ?",
            (payload, broken, seq))
    async with await Storage.open(db_path) as store:
        await store.tables.update_table(fine[0], attention="a player blocked the bot")
        report = await stored.restore(store)
        assert set(report.failed) == {missing}
        assert not (await store.tables.get_table(broken)).needs_attention  # replays again: cleared
        kept = await store.tables.get_table(fine[0])
        assert kept.attention_reason == "a player blocked the bot"  # not restore's mark


async def test_a_game_with_an_unknown_kind_is_marked_not_fatal(db_path: str) -> None:
    async with await Storage.open(db_path) as store:
        live = (await _tables(store))["live"]
    gone = min(live)
    _tamper(db_path, "UPDATE game_tables SET game = 'bridge' WHERE id = ?", (gone,))
    async with await Storage.open(db_path) as store:
        report = await stored.restore(store)
    assert set(report.failed) == {gone} and "unknown game" in report.failed[gone]
    assert set(report.matches) == set(live) - {gone}
