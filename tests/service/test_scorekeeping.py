"""Keeping score through the use cases: players by name, a deal entered in one line, the
enterer's undo, and another player's correction put to a vote."""

from __future__ import annotations

from bot.games.preferans.entry import ENTRY
from bot.service import decisions, events, loading, lobby
from bot.service.drafts import Draft
from bot.service.outcome import Outcome
from bot.service.scorekeeping import corrections, entering
from bot.service.scorekeeping import lobby as keeping
from bot.service.scorekeeping.keeper import keeper_of
from bot.service.tables import Table
from storage.rows import UserRow
from tests.service.conftest import World


async def _kept(world: World) -> tuple[Table, UserRow, UserRow]:
    """A Preferans table keeping score: Ann on Telegram, Bob and Cid by name, and a user on
    Telegram who does not sit there."""
    ann, outsider = await world.users(2)
    out = await lobby.open_table(world.svc, -100, 0, ann, "preferans")
    (table,) = out.changed.values()
    async with table.lock:
        assert (await keeping.press(world.svc, table, ann, "mode", ())).ok
        added = await keeping.add_names(world.svc, table, ann, "Bob, Cid")
        assert added.note == "added" and added.note_params["names"] == ["Bob", "Cid"]
        assert (await keeping.press(world.svc, table, ann, "start", ())).ok
    return table, ann, outsider


async def _press(world: World, table: Table, user: UserRow, *parts: str) -> Outcome:
    async with table.lock:
        return await entering.press(world.svc, table, user, parts, ENTRY)


async def test_a_deal_in_one_line_then_undone_by_its_enterer(world: World) -> None:
    table, ann, outsider = await _kept(world)
    assert table.match is not None and table.names == ["Ann", "Bob", "Cid"]
    async with table.lock:
        early = await entering.deal_command(world.svc, table, ann, "7H Ann made; Bob whist 3",
                                            ENTRY)
    assert early.refusal is not None and early.refusal.code == "dealer_first"
    keeper = table.keeper
    assert keeper is not None
    out = await _press(world, table, ann, "dealer", str(table.match.version),
                       str(keeper.draft.revision), "2")
    assert out.ok
    async with table.lock:
        refused = await entering.deal_command(world.svc, table, outsider, "7H Ann made",
                                              ENTRY)
        assert refused.refusal is not None and refused.refusal.code == "keepers_only"
        entered = await entering.deal_command(world.svc, table, ann,
                                              "7H Ann made; Bob whist 3; Cid pass", ENTRY)
    (scored,) = [e for e in entered.events if isinstance(e, events.DealScored)]
    assert scored.number == 1 and scored.entered is not None
    # the group's message shows the next deal, edited once (the entry is in private)
    assert table.id in entered.changed and table.id not in entered.renew
    assert len(table.match.deals) == 1 == len(await world.svc.store.stats.recent_deals(-100))
    async with table.lock:
        undone = await corrections.undo_command(world.svc, table, ann)
    assert [type(e) for e in undone.events] == [events.DealRemoved]
    assert table.match.deals == [] and (await world.svc.store.log.record(table.id))["deals"] == []


async def test_another_players_undo_is_put_to_the_enterer(world: World) -> None:
    ann, bob = await world.users(2)
    out = await lobby.open_table(world.svc, -100, 0, ann, "preferans")
    (table,) = out.changed.values()
    async with table.lock:
        await keeping.press(world.svc, table, ann, "mode", ())
        assert (await keeping.press(world.svc, table, bob, "join", ())).note == "joined"
        await keeping.add_names(world.svc, table, ann, "Cid")
        await keeping.press(world.svc, table, ann, "start", ())
    assert table.match is not None and table.keeper is not None
    await _press(world, table, ann, "dealer", str(table.match.version),
                 str(table.keeper.draft.revision), "0")
    async with table.lock:
        await entering.deal_command(world.svc, table, ann, "6S Bob 6; Cid whist 2; Ann pass",
                                    ENTRY)
        asked = await corrections.undo_command(world.svc, table, bob)
    (vote,) = [e.vote for e in asked.events if isinstance(e, events.VoteAsked)]
    assert vote.voters == {ann.id} and len(table.match.deals) == 1
    async with table.lock:
        passed = await decisions.vote_press(world.svc, table, ann, (str(vote.id), "y"))
    assert any(isinstance(e, events.DealRemoved) for e in passed.events)
    assert table.match.deals == []


async def test_a_table_loaded_again_goes_on_from_its_stored_draft(world: World) -> None:
    """As another worker (or a restart) loads it: the presses so far, with the revision its
    buttons carry; a stored draft whose presses no longer fit the sheet is dropped."""
    table, ann, _ = await _kept(world)
    assert table.match is not None and table.keeper is not None
    version = str(table.match.version)
    assert (await _press(world, table, ann, "dealer", version, "0", "2")).ok
    assert (await _press(world, table, ann, "c", version, "1", "0")).ok
    held = table.keeper.draft
    world.svc.tables.forget(table)
    loaded = await loading.table(world.svc, table.id)
    assert loaded is not None and loaded is not table
    assert keeper_of(loaded).draft == held and held.taps
    assert (await _press(world, loaded, ann, "c", version, str(held.revision), "0")).ok
    stale = Draft([("no such answer",)], dealer=2, revision=7)
    await world.svc.store.tables.set_draft(table.id, stale.to_data())
    world.svc.tables.forget(loaded)
    again = await loading.table(world.svc, table.id)
    assert again is not None and keeper_of(again).draft == Draft(revision=8)
