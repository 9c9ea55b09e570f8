"""Deal analyses cached with the deal's result (issue 34), on either backend: none until
kept, the first one kept stays, and a deal's analysis is posted in its group once."""

from storage import Storage
from tests.storage.play import play_deals, started_table

PREF = {"variant": "sochi", "pool": 4}


async def test_an_analysis_is_kept_once_and_posted_once(store: Storage) -> None:
    table = await started_table(store, -1, "preferans", PREF, [1, 2, 3])
    await play_deals(store, table, None, seed=3, deals=2)
    analyses = store.analyses
    assert await analyses.get(table.id, 1) is None
    await analyses.keep(table.id, 1, {"par": 7, "costly": []})
    await analyses.keep(table.id, 1, {"par": 8, "costly": []})
    assert await analyses.get(table.id, 1) == {"par": 7, "costly": []}
    assert await analyses.get(table.id, 2) is None  # deal 2 has its own
    assert await analyses.post(table.id, 1) is True
    assert await analyses.post(table.id, 1) is False
    assert await analyses.post(table.id, 2) is True
    await analyses.keep(table.id, 9, {"par": 1})  # no such deal: nothing is stored
    assert await analyses.get(table.id, 9) is None
