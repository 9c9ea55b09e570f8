"""Scorekeeper mode: deals entered by hand, then undone or corrected; the log follows."""

import random

import pytest

from bot.service import records as stored
from engine.manual import add_entry, edit, fill, form_at, form_for, undo
from engine.match import Match
from engine.preferans.rules import Rules
from engine.records import replay
from storage import BadInput, SeqConflict, SeqGap, Storage, WrongStatus
from storage.rows import Entry, TableRow
from tests.storage.play import enter_deal, lines, play_deals, scored

CHAT = -3


async def _guest_table(store: Storage, rules: dict) -> TableRow:
    await store.chats.save_user(1, display_name="Ann")
    table = await store.tables.create_table(CHAT, "preferans", creator_id=1, rules=rules,
                                            seat_count=3)
    await store.tables.seat_user(table.id, 1)
    await store.tables.seat_guest(table.id, "Bob")
    await store.tables.seat_guest(table.id, "Cid")
    return await store.tables.start_game(table.id, rules=Rules.from_dict(rules).to_dict())


async def _stored_as(store: Storage, table_id: int, match: Match) -> None:
    """The log, the deal results and the restored match all say what ``match`` says."""
    assert await store.log.record(table_id) == match.record()
    assert (await stored.load_match(store, table_id)).report() == match.report()
    deals = sorted(await store.stats.recent_deals(CHAT, 1000), key=lambda d: d.deal_no)
    assert [d.result for d in deals] == replay(match.record()).report()["deals"]
    assert (await store.tables.get_table(table_id)).last_seq == match.version


async def test_undo_and_edit_rewrite_the_entered_deals(store: Storage) -> None:
    table = await _guest_table(store, {})
    rng = random.Random(1)
    match = replay(table.header())
    for _ in range(5):
        await enter_deal(store, table, match, rng)
    new = undo(match)
    await store.log.replace_entered_deals(table.id, len(new.deals), [], [], stats=[],
                                          expected_last=match.version)
    await _stored_as(store, table.id, new)
    match = new
    correction = fill(form_at(match, 2), lambda step, _: rng.choice(step.choices))
    new = edit(match, 2, correction)
    await store.log.replace_entered_deals(table.id, 1, new.deals[1:], new.outputs[1:],
                                          stats=[lines(new, o) for o in new.outputs[1:]],
                                          expected_last=match.version)
    await _stored_as(store, table.id, new)
    [stats] = await store.stats.user_stats(1)
    assert stats.deals == len(new.deals)


async def test_undoing_the_deal_that_ended_the_game_reopens_it(store: Storage) -> None:
    table = await _guest_table(store, {"pool": 2})
    rng = random.Random(2)
    match = replay(table.header())
    while not match.over:
        await enter_deal(store, table, match, rng)
    assert (await store.tables.get_table(table.id)).status == "finished"
    assert [s.games for s in await store.stats.user_stats(1)] == [1]
    new = undo(match)
    reopened = await store.log.replace_entered_deals(table.id, len(new.deals), [], [], stats=[],
                                                     expected_last=match.version)
    assert reopened.status == "playing" and reopened.finished_at is None
    assert [s.games for s in await store.stats.user_stats(1)] == [0]
    assert await store.stats.recent_games(CHAT) == []
    await _stored_as(store, table.id, new)
    while not new.over:
        await enter_deal(store, reopened, new, rng)
    [game] = await store.stats.recent_games(CHAT)
    assert [r.balance for r in game.results] == new.report()["settlement"]


async def test_stale_or_played_revisions_are_refused(store: Storage) -> None:
    table = await _guest_table(store, {})
    rng = random.Random(3)
    match = replay(table.header())
    await enter_deal(store, table, match, rng)
    await enter_deal(store, table, match, rng)
    before = await store.log.record(table.id)
    with pytest.raises(SeqConflict):
        await store.log.replace_entered_deals(table.id, 1, [], [], stats=[],
                                              expected_last=match.version - 1)
    with pytest.raises(BadInput):
        await store.log.replace_entered_deals(table.id, 5, [], [], stats=[],
                                              expected_last=match.version)
    await play_deals(store, table, match, seed=4, deals=1)
    with pytest.raises(BadInput, match="entered by hand"):
        await store.log.replace_entered_deals(table.id, 1, [], [], stats=[],
                                              expected_last=match.version)
    assert (await store.log.record(table.id))["deals"][:2] == before["deals"]


async def test_the_draft_is_stored_with_the_change_that_makes_it(store: Storage) -> None:
    """A press stores the draft (the table changed: its message is behind until shown); a
    saved or rewritten deal stores the next one in its own transaction, so a refused one
    leaves the draft as it was."""
    table = await _guest_table(store, {})
    assert table.draft is None
    await store.tables.mark_shown(table.id, table.updated_at)
    pressed = await store.tables.set_draft(table.id, {"taps": [["game", 1]], "revision": 1})
    assert pressed.draft == {"taps": [["game", 1]], "revision": 1} and not pressed.shown
    match = replay(table.header())
    entry = fill(form_for(match), lambda step, _: step.choices[0])
    result, _ = scored(add_entry(match, entry))
    with pytest.raises(SeqGap):
        await store.log.append(table.id, match.version + 1, Entry.deal(match.deals[-1]),
                               result=result, draft={"revision": 2})
    assert (await store.tables.get_table(table.id)).draft == pressed.draft
    await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]),
                           result=result, stats=lines(match, result), draft={"revision": 2})
    assert (await store.tables.get_table(table.id)).draft == {"revision": 2}
    with pytest.raises(SeqConflict):
        await store.log.replace_entered_deals(table.id, 0, [], [], stats=[],
                                              expected_last=match.version - 1,
                                              draft={"revision": 3})
    assert (await store.tables.get_table(table.id)).draft == {"revision": 2}
    undone = await store.log.replace_entered_deals(table.id, 0, [], [], stats=[],
                                                   expected_last=match.version,
                                                   draft={"revision": 3})
    assert undone.draft == {"revision": 3}
    await store.tables.set_status(table.id, "paused")
    with pytest.raises(WrongStatus):  # no deal is entered on a paused table
        await store.tables.set_draft(table.id, {"revision": 4})
