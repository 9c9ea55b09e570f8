"""The action log: ordered, durable appends; duplicates and gaps refused; many games at once."""

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import records as stored
from engine.records import new_match, replay
from storage import BadInput, DuplicateSeq, Entry, NotFound, SeqGap, Storage, WrongStatus
from tests.storage.conftest import rows
from tests.storage.play import play_deals, started_table

PREF = {"variant": "sochi", "pool": 4}


async def _log(store: Storage, table_id: int) -> list[tuple[int, str, int]]:
    return await rows(
        store, "SELECT seq, kind, deal_no FROM log_entries WHERE table_id = ? ORDER BY seq",
        (table_id,))


async def test_entries_are_numbered_from_one_and_rebuild_the_match(store: Storage) -> None:
    table = await started_table(store, -1, "preferans", PREF, [1, 2, 3])
    match = await play_deals(store, table, None, seed=1, deals=2)
    log = await _log(store, table.id)
    assert [seq for seq, _, _ in log] == list(range(1, match.version + 1))
    assert [kind for _, kind, _ in log].count("deal") == len(match.deals)
    assert (await store.tables.get_table(table.id)).last_seq == match.version
    assert (await store.log.record(table.id)) == match.record()
    rebuilt = await stored.load_match(store, table.id)  # from the last deal's snapshot
    assert rebuilt.report() == match.report() and rebuilt.version == match.version


async def test_duplicate_and_out_of_order_appends_are_refused_and_change_nothing(
    store: Storage,
) -> None:
    table = await started_table(store, -1, "preferans", PREF, [1, 2, 3])
    match = await play_deals(store, table, None, seed=2, deals=1)
    before = await _log(store, table.id)
    last = match.version
    deal = Entry.deal(match.deals[-1])
    action = Entry.action(match.deals[-1]["actions"][-1], user_id=1)
    with pytest.raises(DuplicateSeq) as dup:
        await store.log.append(table.id, last, action)
    assert (dup.value.seq, dup.value.last) == (last, last)
    with pytest.raises(DuplicateSeq):
        await store.log.append(table.id, 1, deal)
    with pytest.raises(SeqGap) as gap:
        await store.log.append(table.id, last + 2, deal)
    assert "the next entry is" in str(gap.value)
    with pytest.raises(NotFound):
        await store.log.append(999, 1, deal)
    assert await _log(store, table.id) == before


async def test_malformed_entries_are_refused(store: Storage) -> None:
    table = await started_table(store, -1, "preferans", PREF, [1, 2, 3])
    with pytest.raises(BadInput, match="before the first deal"):
        await store.log.append(table.id, 1, Entry.action({"seat": 0, "bid": "6S"}))
    match = new_match(table.header())
    match.start_deal(seed=1)
    await store.log.append(table.id, 1, Entry.deal(match.deals[-1]))
    for bad in (Entry.action({"seat": 3, "bid": "6S"}), Entry.action({"bid": "6S"}),
                Entry.action({"seat": 0, "card": {1, 2}}),
                Entry("deal", {**match.deals[-1], "actions": [{"seat": 0, "bid": "6S"}]}),
                Entry("trick", {"seat": 0})):  # type: ignore[arg-type]
        with pytest.raises(BadInput):
            await store.log.append(table.id, 2, bad)
    assert await _log(store, table.id) == [(1, "deal", 0)]


async def test_only_a_playing_table_takes_entries(store: Storage) -> None:
    table = await started_table(store, -1, "preferans", PREF, [1, 2, 3])
    match = new_match(table.header())
    match.start_deal(seed=1)
    await store.tables.set_status(table.id, "paused")
    with pytest.raises(WrongStatus):
        await store.log.append(table.id, 1, Entry.deal(match.deals[-1]))
    await store.tables.set_status(table.id, "playing")
    await store.log.append(table.id, 1, Entry.deal(match.deals[-1]))


async def test_concurrent_appends_to_many_games_from_one_loop(store: Storage) -> None:
    """Forty games played at once; each log replays to exactly its live match."""
    tables = [await started_table(store, -100 - i, "preferans" if i % 2 else "joker",
                                  PREF if i % 2 else {}, [1, 2, 3] if i % 2 else [1, 2, 3, 4])
              for i in range(40)]
    matches = await asyncio.gather(*(play_deals(store, t, None, seed=t.id, deals=2)
                                     for t in tables))
    for table, match in zip(tables, matches, strict=True):
        assert await store.log.record(table.id) == match.record()
        assert (await store.tables.get_table(table.id)).last_seq == match.version


async def test_a_refused_append_in_a_batch_leaves_the_others_committed(store: Storage) -> None:
    """Appends queued together commit together; the doubled one alone is refused."""
    tables = [await started_table(store, -200 - i, "preferans", PREF, [1, 2, 3]) for i in range(5)]
    entries = []
    for table in tables:
        match = new_match(table.header())
        match.start_deal(seed=table.id)
        entries.append(Entry.deal(match.deals[-1]))
    appends = [store.log.append(t.id, 1, e) for t, e in zip(tables, entries, strict=True)]
    appends.insert(2, store.log.append(tables[0].id, 1, entries[0]))  # the same update twice
    outcomes = await asyncio.gather(*appends, return_exceptions=True)
    assert [type(o) for o in outcomes].count(DuplicateSeq) == 1
    assert sum(isinstance(o, float) for o in outcomes) == 5  # committed: its updated_at
    for table in tables:
        assert await _log(store, table.id) == [(1, "deal", 0)]


async def test_the_last_action_of_a_game_commits_its_result_and_settlement(store: Storage) -> None:
    table = await started_table(store, -1, "preferans", {"variant": "sochi", "pool": 2}, [1, 2, 3])
    match = await play_deals(store, table, None, seed=4, deals=60)
    assert match.over
    finished = await store.tables.get_table(table.id)
    assert finished.status == "finished" and finished.finished_at is not None
    [game] = await store.stats.recent_games(-1)
    assert [r.balance for r in game.results] == match.report()["settlement"]
    assert game.deals == len(match.deals)
    deals = await store.stats.recent_deals(-1, limit=100)
    assert [d.result for d in reversed(deals)] == replay(match.record()).report()["deals"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(st.integers(0, 2), st.sampled_from([-2, -1, 0, 0, 0, 1])),
                    max_size=40))
async def test_queued_appends_behave_as_if_applied_one_by_one(
    sqlite_store: Storage, ops: list[tuple[int, int]]
) -> None:
    """SQLite's group commit: appends submitted together, some doubled or skipping ahead:
    each gets the answer it would get alone, in submission order, and the logs hold exactly
    the accepted ones. (PostgreSQL commits concurrent writes in no promised order; the use
    cases never submit two writes of one table at once: they hold its lock.)"""
    store = sqlite_store
    chat = -1 - (await rows(store, "SELECT COUNT(*) FROM game_tables"))[0][0]
    tables = [await started_table(store, chat - 10_000 * i, "preferans", {}, [1, 2, 3])
              for i in range(3)]
    last = [0, 0, 0]
    expected: list[type[Exception] | None] = []
    calls = []
    for n, (t, delta) in enumerate(ops):
        seq = max(1, last[t] + 1 + delta)
        if seq == last[t] + 1:
            last[t] = seq
            expected.append(None)
        else:
            expected.append(DuplicateSeq if seq <= last[t] else SeqGap)
        calls.append(store.log.append(tables[t].id, seq, Entry.deal({"n": n})))
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert [None if isinstance(o, float) else type(o) for o in outcomes] == expected
    for t, table in enumerate(tables):
        log = await _log(store, table.id)
        assert [seq for seq, _, _ in log] == list(range(1, last[t] + 1))


async def test_an_append_refused_after_writing_leaves_no_trace(store: Storage) -> None:
    """A bad settlement is found after the entry is written: the entry goes too, alone
    (alone in its batch, and among others)."""
    tables = [await started_table(store, -300 - i, "preferans", PREF, [1, 2, 3])
              for i in range(3)]
    with pytest.raises(BadInput, match="one number per seat"):
        await store.log.append(tables[0].id, 1, Entry.deal({"n": 0}), settlement=[1.0, 2.0])
    outcomes = await asyncio.gather(
        store.log.append(tables[1].id, 1, Entry.deal({"n": 1})),
        store.log.append(tables[0].id, 1, Entry.deal({"n": 0}),
                         settlement=[1.0, 2.0, float("nan")]),
        store.log.append(tables[2].id, 1, Entry.deal({"n": 2})),
        return_exceptions=True)
    assert isinstance(outcomes[0], float) and isinstance(outcomes[1], BadInput)
    assert isinstance(outcomes[2], float)
    assert await _log(store, tables[0].id) == []
    assert (await store.tables.get_table(tables[0].id)).status == "playing"
    assert await _log(store, tables[1].id) == await _log(store, tables[2].id) == [(1, "deal", 0)]
