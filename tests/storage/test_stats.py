"""History and /stats answer from indexed rows what replaying the records says."""

from collections import Counter, defaultdict

import pytest

from engine.records import replay
from storage import Storage
from storage.rows import ContractStats
from tests.storage.play import play_deals, started_table

CHAT = -77
ROBOT = 4
# (seed, rules, users): short Sochi pools so that games end; user 4 is a robot-played seat.
GAMES = [
    (1, {"variant": "sochi", "pool": 2}, [1, 2, 3]),
    (2, {"variant": "rostov", "pool": 2}, [2, 3, ROBOT]),
    (3, {"variant": "leningrad", "pool": 2}, [3, 1, 2]),
    (4, {"variant": "sochi", "pool": 2, "players": 4}, [1, 2, 3, ROBOT]),
    (5, {"variant": "sochi", "pool": 2}, [1, 3, 2]),
]


@pytest.fixture
async def played(store: Storage) -> list[tuple[list[int], dict]]:
    """The finished games in the chat: (users by seat, record), plus an unfinished one."""
    games = []
    for seed, rules, users in GAMES:
        table = await started_table(store, CHAT, "preferans", rules, users)
        robots = [users.index(ROBOT)] if ROBOT in users else []
        match = await play_deals(store, table, None, seed, deals=80, robot_seats=robots)
        assert match.over
        games.append((users, match.record()))
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    await play_deals(store, table, None, seed=9, deals=2)  # unfinished: deals count, no result
    return games


def _expected(games: list[tuple[list[int], dict]], extra: list[int], extra_deals: list[dict]):
    """Per-user figures computed from the replay outputs alone."""
    per_user: dict[int, dict] = defaultdict(lambda: {
        "games": 0, "first": 0, "balance": 0.0, "deals": 0, "robot": 0, "won": 0, "lost": 0,
        "levels": defaultdict(Counter), "misers": Counter()})
    outputs = [(users, replay(record).report()) for users, record in games]
    outputs.append((extra, {"deals": extra_deals, "settlement": None}))
    for users, report in outputs:
        settlement = report["settlement"]
        for seat, user in enumerate(users):
            u = per_user[user]
            if settlement is not None:
                u["games"] += 1
                u["balance"] += settlement[seat]
                u["first"] += settlement[seat] == max(settlement)
            for deal in report["deals"]:
                u["deals"] += 1
                u["robot"] += user == ROBOT and not (len(users) == 4 and deal["dealer"] == seat)
                whists = deal["entries"]["whists"]
                u["won"] += sum(whists[seat])
                u["lost"] += sum(row[seat] for row in whists)
                if deal["declarer"] != seat:
                    continue
                # Independent of how storage decides: a failed contract or miser is
                # written on the declarer's mountain, a made one never is.
                outcome = "failed" if deal["entries"]["mountain"][seat] > 0 else "made"
                if deal["kind"] == "miser":
                    u["misers"][outcome] += 1
                else:
                    u["levels"][int(deal["contract"].rstrip("SCDHNT"))][outcome] += 1
    return per_user


async def test_user_stats_match_the_records(store: Storage, played: list) -> None:
    table = await store.tables.open_table(CHAT)
    assert table is not None
    unfinished = replay(await store.log.record(table.id)).report()["deals"]
    finished_deals = [d for d in unfinished if d["kind"] != "unfinished"]
    expected = _expected(played, [1, 2, 3], finished_deals)
    seen_misers = seen_failures = 0
    for user, want in expected.items():
        [stats] = await store.stats.user_stats(user)
        assert stats.game == "preferans"
        assert (stats.games, stats.first_places, stats.deals, stats.robot_deals) == (
            want["games"], want["first"], want["deals"], want["robot"])
        assert stats.balance == pytest.approx(want["balance"])
        assert (stats.won, stats.lost) == (want["won"], want["lost"])
        assert stats.contracts == {
            level: ContractStats(c["made"] + c["failed"], c["made"], c["failed"])
            for level, c in want["levels"].items()}
        m = want["misers"]
        assert stats.misers == ContractStats(m["made"] + m["failed"], m["made"], m["failed"])
        seen_misers += stats.misers.declared
        seen_failures += sum(c.failed for c in stats.contracts.values())
    assert seen_misers and seen_failures  # the sample exercises both outcomes
    assert await store.stats.user_stats(1, "joker") == []
    assert await store.stats.user_stats(999) == []


async def test_history_of_the_chat(store: Storage, played: list) -> None:
    games = await store.stats.recent_games(CHAT, limit=3)
    assert len(games) == 3 and all(g.status == "finished" for g in games)
    newest_first = list(reversed(played))[:3]
    for game, (users, record) in zip(games, newest_first, strict=True):
        report = replay(record).report()
        assert [r.user_id for r in game.results] == users
        assert [r.balance for r in game.results] == report["settlement"]
        assert [r.name for r in game.results] == record["players"]
        assert game.deals == len(record["deals"])
        best = max(report["settlement"])
        assert [r.place == 1 for r in game.results] == [b == best for b in report["settlement"]]
    deals = await store.stats.recent_deals(CHAT, limit=5)
    table = await store.tables.open_table(CHAT)
    assert table is not None
    current = [d for d in replay(await store.log.record(table.id)).report()["deals"]
               if d["kind"] != "unfinished"]
    last_game = replay(played[-1][1]).report()["deals"]
    assert [d.result for d in deals] == (list(reversed(current)) + list(reversed(last_game)))[:5]
    assert all(d.robot_seats == () for d in deals)  # no robot at these tables
    # GAMES[3] (table 4): four players, the robot at seat 3
    robot_game = [d for d in await store.stats.recent_deals(CHAT, 1000) if d.table_id == 4]
    assert robot_game and all(d.robot_seats in ((3,), ()) for d in robot_game)
    assert sum(d.robot_seats == () for d in robot_game) == sum(  # the dealer sits out
        d.result["dealer"] == 3 for d in robot_game)


@pytest.mark.parametrize("game", ["joker", "seep"])
async def test_other_games_stats_come_from_their_outputs(
    store: Storage, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    users = [11, 12, 13, 14]
    table = await started_table(store, -5, game, {}, users)
    match = await play_deals(store, table, None, seed=6, deals=8)
    assert "no statistics" not in caplog.text  # every output was understood
    outputs = match.report()["deals"]
    for seat, user in enumerate(users):
        [stats] = await store.stats.user_stats(user, game)
        if game == "joker":
            points = [d["points"][seat] for d in outputs]
            made = Counter((d["bids"][seat], d["bids"][seat] == d["tricks"][seat]) for d in outputs)
            assert stats.deals == len(outputs)
            assert (stats.won, stats.lost) == (sum(p for p in points if p > 0),
                                               -sum(p for p in points if p < 0))
        else:
            played = [d for d in outputs if d["bid"] is not None]
            assert stats.deals == len(played)
            assert (stats.won, stats.lost) == (sum(d["score"][seat % 2] for d in played),
                                               sum(d["score"][1 - seat % 2] for d in played))
            made = Counter((d["bid"], None) for d in played if d["bidder"] == seat)
        levels = {level for level, _ in made}
        assert stats.contracts == {level: ContractStats(
            sum(n for (lv, _), n in made.items() if lv == level), made[level, True],
            made[level, False]) for level in levels}
