"""Export and import: a record goes into the log and comes back out the same."""

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import records as stored
from engine.__main__ import play_random
from engine.games import GAMES
from engine.records import replay
from storage import InvalidRecord, NotFound, Storage, TableExists, WrongStatus
from tests.storage.play import enter_deal, play_deals, started_table

RECORDS = Path(__file__).parent.parent / "records"


async def _round_trip(store: Storage, chat_id: int, record: dict) -> None:
    expected = replay(record)
    table = await stored.import_record(store, chat_id, record)
    exported = await store.log.record(table.id)
    assert exported == expected.record()
    assert replay(json.loads(json.dumps(exported))).report() == expected.report()
    assert table.status == ("finished" if expected.over else "paused")
    assert table.last_seq == expected.version and table.deal_count == len(expected.deals)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000), deals=st.integers(0, 4))
async def test_export_import_replay_round_trip(
    store: Storage, game: str, seed: int, deals: int
) -> None:
    chat_id = -seed - 1_000_000 * deals - 1
    if await store.tables.open_table(chat_id) is None:
        await _round_trip(store, chat_id, play_random(game, seed, deals, play=True))


async def test_the_project_records_round_trip(store: Storage) -> None:
    files = sorted(RECORDS.glob("*.json"))
    assert files
    for n, path in enumerate(files):
        record = json.loads(path.read_text(encoding="utf-8"))
        if "deals" in record:
            await _round_trip(store, -n - 1, record)


async def test_a_finished_game_imports_with_its_results(store: Storage) -> None:
    record = play_random("preferans", 3, 400, play=True)
    record["rules"] = {"variant": "sochi", "pool": 2}
    record = replay_to_end(record)
    await started_table(store, -1, "joker", {}, [1, 2, 3, 4])  # an open table does not matter
    with pytest.raises(NotFound):
        await stored.import_record(store, -1, record, user_ids=[10, 11, None])
    await store.chats.save_user(10, display_name="Ann")
    await store.chats.save_user(11, display_name="Bob")
    table = await stored.import_record(store, -1, record, user_ids=[10, 11, None])
    assert table.status == "finished" and [s.user_id for s in table.seats] == [10, 11, None]
    [game] = await store.stats.recent_games(-1)
    assert [r.balance for r in game.results] == replay(record).report()["settlement"]
    assert [r.user_id for r in game.results] == [10, 11, None]
    [stats] = await store.stats.user_stats(11)
    assert (stats.games, stats.deals) == (1, len(record["deals"]))


def replay_to_end(record: dict) -> dict:
    """The record cut after the deal that ends the game under its (shorter) rules."""
    cut = copy.deepcopy(record)
    for n in range(1, len(cut["deals"]) + 1):
        cut["deals"] = record["deals"][:n]
        if replay(cut).over:
            return cut
    raise AssertionError("the game did not end")


async def test_a_record_that_does_not_replay_is_refused_and_nothing_is_stored(
    store: Storage,
) -> None:
    record = play_random("preferans", 5, 2, play=True)
    record["deals"][0]["actions"][3] = {"seat": 0, "play": "JK"}
    with pytest.raises(InvalidRecord, match="deal 0, action 3"):
        await stored.import_record(store, -1, record)
    with pytest.raises(InvalidRecord, match="unknown game"):
        await stored.import_record(store, -1, {**record, "game": "bridge"})
    assert await store.chats.get_chat(-1) is None and await store.tables.open_table(-1) is None


async def test_an_unfinished_import_needs_a_free_chat(store: Storage) -> None:
    await started_table(store, -1, "preferans", {}, [1, 2, 3])
    with pytest.raises(TableExists):
        await stored.import_record(store, -1, play_random("preferans", 5, 1, play=True))


async def test_a_lobby_has_no_record(store: Storage) -> None:
    await store.chats.save_user(1, display_name="Ann")
    table = await store.tables.create_table(-1, "preferans", creator_id=1, rules={}, seat_count=3)
    with pytest.raises(WrongStatus):
        await store.log.record(table.id)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_played_and_entered_deals_mix_in_one_log(store: Storage, game: str) -> None:
    """Scorekeeper mode: deals entered by hand have no actions, and keep none on export."""
    users = [1, 2, 3] if game == "preferans" else [1, 2, 3, 4]
    table = await started_table(store, -1, game, {}, users)
    rng = random.Random(game)
    match = await play_deals(store, table, None, seed=1, deals=1)
    for _ in range(3):
        if not match.over:
            await enter_deal(store, table, match, rng)
    if not match.over:
        match = await play_deals(store, table, match, seed=2, deals=1)
    exported = await store.log.record(table.id)
    assert exported == match.record()
    assert any("entry" in deal and "actions" not in deal for deal in exported["deals"])
    assert replay(exported).report() == match.report()
    loaded = await stored.load_match(store, table.id)  # from the played deal's snapshot
    assert loaded.report() == match.report() and loaded.version == match.version
    assert len(await store.stats.recent_deals(-1, 100)) == len(match.outputs)
    await _round_trip(store, -2, exported)
