"""Loading a table: its match rebuilt from the snapshot of its last deal's end and the log
after it, as a full replay gives it; a broken one marked, the others untouched. On both
backends."""

import json
import random

from bot.service import records as stored
from bot.service.records import REPLAY_FAILED
from engine.match import Match
from engine.records import replay
from storage import Entry, Storage
from tests.storage.conftest import rows
from tests.storage.play import play_deals, play_one, started_table


async def _tamper(location: str, sql: str, params: tuple) -> None:
    async with await Storage.open(location) as store:
        await store.db.write(lambda conn: conn.execute(sql, params))


async def _tables(store: Storage) -> dict:
    """A lobby, two playing games and a paused one, each in a deal after two finished ones,
    and a finished game; their live matches."""
    await store.chats.save_user(9, display_name="Lobby")
    lobby = await store.tables.create_table(-9, "preferans", creator_id=9, rules={}, seat_count=3)
    live = {}
    for chat, game, users in ((-1, "preferans", [1, 2, 3]), (-2, "joker", [1, 2, 3, 4]),
                              (-3, "preferans", [4, 5, 6, 7])):
        rules = {"players": 4} if chat == -3 else {}
        table = await started_table(store, chat, game, rules, users)
        match = await play_deals(store, table, None, seed=chat, deals=2)
        match.start_deal(seed=f"{chat}/current")
        await store.log.append(table.id, match.version, stored_deal(match))
        for _ in range(3):
            await play_one(store, table, match, random.Random(chat), set())
        live[table.id] = match
    await store.tables.set_status(min(live) + 1, "paused")
    done = await started_table(store, -4, "preferans", {"pool": 2}, [1, 2, 3])
    assert (await play_deals(store, done, None, seed=4, deals=60)).over
    return {"lobby": lobby.id, "live": live}


def stored_deal(match: Match) -> Entry:
    return Entry.deal(match.deals[-1])


async def test_loading_rebuilds_every_active_match_from_its_snapshot(location: str) -> None:
    async with await Storage.open(location) as store:
        made = await _tables(store)
    async with await Storage.open(location) as store:
        snapshots = dict(await rows(store, "SELECT table_id, seq FROM snapshots"))
        for table_id, match in made["live"].items():
            found = await stored.load(store, table_id)
            restored = found.match
            assert found.problem is None and restored is not None
            assert restored.earlier == 2  # the deals before the snapshot are not replayed
            assert snapshots[table_id] == restored.version - 4
            full = replay(await store.log.record(table_id))
            for rebuilt in (full, restored):
                assert rebuilt.report() == match.report()
                assert rebuilt.version == match.version == found.row.last_seq
                assert rebuilt.state is not None and match.state is not None
                assert rebuilt.state.view(None) == match.state.view(None)
        lobby = await stored.load(store, made["lobby"])
        assert lobby.match is None and lobby.problem is None


async def test_a_broken_record_is_marked_and_the_others_load(location: str) -> None:
    async with await Storage.open(location) as store:
        live = (await _tables(store))["live"]
        broken, missing, *fine = sorted(live)
        ((seq, payload),) = await rows(
            store, "SELECT seq, payload FROM log_entries WHERE table_id = ? AND kind = 'action'"
            " AND seq > (SELECT seq FROM snapshots WHERE table_id = ?) ORDER BY seq LIMIT 1",
            (broken, broken))
    bad = {**json.loads(payload), "card": "11X"}  # as if a rules fix had made it illegal
    bad.pop("bid", None)
    await _tamper(location, "UPDATE log_entries SET payload = ? WHERE table_id = ? AND seq = ?",
                  (json.dumps(bad), broken, seq))
    await _tamper(location, "DELETE FROM log_entries WHERE table_id = ? AND seq = "
                  "(SELECT MAX(seq) FROM log_entries WHERE table_id = ?)", (missing, missing))
    async with await Storage.open(location) as store:
        found = {t: await stored.load(store, t) for t in live}
        assert {t for t, f in found.items() if f.problem} == {broken, missing}
        assert "deal 2, action 0" in str(found[broken].problem)
        assert "the table says" in str(found[missing].problem)
        for table_id in fine:
            assert found[table_id].match is not None
            assert found[table_id].match.report() == live[table_id].report()
            assert not found[table_id].row.needs_attention
        for table_id in (broken, missing):
            table = await store.tables.get_table(table_id)
            assert found[table_id].match is None and table.needs_attention
            assert (table.attention_reason or "").startswith(REPLAY_FAILED)
            assert table.status in ("playing", "paused")  # the game itself is kept as it is
            assert found[table_id].row == table

    await _tamper(location, "UPDATE log_entries SET payload = ? WHERE table_id = ? AND seq = ?",
                  (payload, broken, seq))
    async with await Storage.open(location) as store:
        await store.tables.update_table(fine[0], attention="a player blocked the bot")
        assert (await stored.load(store, missing)).problem is not None
        assert (await stored.load(store, broken)).problem is None
        assert not (await store.tables.get_table(broken)).needs_attention  # replays: cleared
        await stored.load(store, fine[0])
        kept = await store.tables.get_table(fine[0])
        assert kept.attention_reason == "a player blocked the bot"  # not the loader's mark


async def test_a_game_with_an_unknown_kind_is_marked_not_fatal(location: str) -> None:
    async with await Storage.open(location) as store:
        live = (await _tables(store))["live"]
    gone = min(live)
    await _tamper(location, "UPDATE game_tables SET game = 'bridge' WHERE id = ?", (gone,))
    async with await Storage.open(location) as store:
        found = await stored.load(store, gone)
        assert found.problem is not None and "unknown game" in found.problem
        for table_id in set(live) - {gone}:
            assert (await stored.load(store, table_id)).match is not None


async def test_a_snapshot_that_does_not_fit_its_log_is_a_problem_not_a_wrong_match(
    location: str,
) -> None:
    """A snapshot is trusted only as far as the log agrees: a version ahead of the log is
    refused, never shown."""
    async with await Storage.open(location) as store:
        live = (await _tables(store))["live"]
    table_id = min(live)
    await _tamper(location, "UPDATE snapshots SET data = ? WHERE table_id = ?",
                  (json.dumps({"version": 1, "deals": 2, "first_dealer": 0, "sheet": {}}),
                   table_id))
    async with await Storage.open(location) as store:
        assert "snapshot" in str((await stored.load(store, table_id)).problem)
