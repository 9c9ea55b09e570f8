"""The Mini App's server as an attacker meets it, end to end against the running bot: a
forged, expired or replayed request gets 401 and changes nothing; a user sees only his own
seat's view (a spectator ``view(None)``, on the page and its live stream) and acts only for
his seat at his table; a stale, malformed or out-of-place request gets a 4xx with a clear
message and changes nothing. A table not loaded yet is loaded by the Mini App's first touch,
as by a keyboard's press."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from bot.games import plugin
from bot.screens import refusals
from bot.screens.look import context
from bot.service.outcome import Refusal
from bot.service.tables import Table
from bot.telegram.context import BotData as Hub
from bot.ui.i18n import translator
from bot.webapp.auth import MAX_AGE, sign
from bot.webapp.page import sheet
from tests.bot.harness import open_table, press_first
from tests.bot.tabletop import seat_users
from tests.bot.test_rematch import end_by_vote
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat
from tests.webapp.driver import Stream
from tests.webapp.harness import bot_with_webapp, get_page, init_data, post_press

EN = translator("en")
UNPROVED = ("This Mini App cannot prove who you are (or it was opened too long ago): close it "
            "and open it again from the bot.")


def said(code: str) -> str:
    return refusals.text(Refusal(code), EN)


def state_of(table: Table) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    assert table.match is not None
    return (table.match.version, table.match.record(), dict(table.selection),
            table.row.last_seq, table.row.status)


async def start_game(tg: FakeTelegram, hub: Hub, group: Chat, users: list[User]) -> Table:
    await tg.press(users[0], await open_table(tg, group, users), text="▶ Start")
    await tg.idle()
    table = hub.services.tables.in_topic(group.id)
    assert table is not None and table.match is not None
    return table


def press_body(at: Table, init: str, nonce: str, **fields: Any) -> dict[str, Any]:
    """A tap on the first legal action of the seat to act at ``at``, as the page posts it."""
    assert at.match is not None and at.match.state is not None
    seat = at.match.state.to_act[0]
    return {"initData": init, "nonce": nonce, "table": at.id, "kind": "a",
            "version": at.match.version, "seat": seat,
            "action": at.match.state.legal_actions(seat)[0], **fields}


def to_act(table: Table, users: list[User]) -> User:
    assert table.match is not None and table.match.state is not None
    user_id = table.user_of(table.match.state.controller(table.match.state.to_act[0]))
    return next(u for u in users if u.id == user_id)


async def test_only_a_proved_user_reads_or_acts(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    dan = tg.add_user("Dan")
    group = tg.add_group("Cards", [*users, dan])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await start_game(tg, hub, group, users)
        state = table.match.state
        seats = {u.id: s for s, u in seat_users(hub, users).items()}
        player = to_act(table, users)

        def press(init: str, nonce: str, **fields: Any) -> dict[str, Any]:
            return press_body(table, init, nonce, **fields)

        # Forged (another token), expired, tampered with, none: 401, on every route.
        forged = sign({"auth_date": str(int(time.time())), "user": f'{{"id":{player.id}}}'},
                      "1:not-this-bots-token-0000000000")
        expired = init_data(tg, player, auth_date=time.time() - MAX_AGE - 60)
        future = init_data(tg, player, auth_date=time.time() + 3600)
        tampered = init_data(tg, player).replace(str(player.id), str(dan.id), 1)
        before = state_of(table)
        for init in (forged, expired, future, tampered, init_data(tg, player)[:-1], ""):
            assert await post_press(url, press(init, "n" * 16)) == (
                401, {"ok": False, "text": UNPROVED}), init
            assert (await get_page(url, init, table.id))[0] == 401
            async with ClientSession() as http:
                for route in ("api/events", "api/sheet", "api/sheet.png"):
                    async with http.get(url + route, params={
                            "initData": init, "table": str(table.id)}) as answer:
                        assert answer.status == 401, route
        for nonce in ("", "short", "n" * 65):
            assert (await post_press(url, press(init_data(tg, player), nonce)))[0] == 401
        assert state_of(table) == before

        # A user's page is his seat's view; a spectator's (the group's link) is view(None),
        # and so is every page of his live stream.
        for user in users:
            status, page = await get_page(url, init_data(tg, user), table.id)
            assert status == 200 and page["seat"] == seats[user.id]
            assert page["drawing"]["hand"] == state.view(seats[user.id])["hand"]
        public = plugin("preferans").miniapp(state.view(None), context(table, EN))
        status, page = await get_page(url, init_data(tg, dan, start_param=str(table.id)), 0)
        assert status == 200 and page["seat"] is None and page["drawing"] == public
        assert page["drawing"]["hand"] == [] and page["drawing"]["actions"] == []
        async with Stream(url, init_data(tg, dan), table.id) as stream:
            while not stream.pages:
                await asyncio.sleep(0.01)
            (first,) = stream.take()
            assert json.loads(first)["drawing"] == public
        # A stream lives as long as its initData is good, then says so and ends.
        ageing = init_data(tg, dan, start_param=str(table.id), auth_date=time.time() - MAX_AGE + 5)
        async with ClientSession() as http, http.get(url + "api/events", params={
                "initData": ageing}) as answer:
            assert answer.status == 200
            lines = [line async for line in answer.content]
        ends = [i for i, line in enumerate(lines) if line.startswith(b"event: ")]
        assert [lines[i] for i in ends] == [b"event: expired\n"] and ends[0] > 0
        assert json.loads(lines[ends[0] + 1].removeprefix(b"data: "))["text"] == UNPROVED

        # Nobody acts for a seat but his own, at a table but his own, at the version he saw;
        # malformed requests are refused; nothing changes.
        other = next(u for u in users if u is not player)
        mine = init_data(tg, player)
        refused: list[tuple[dict[str, Any] | bytes, int, str | None]] = [
            (press(init_data(tg, other), "o" * 16), 409, said("not_your_turn")),
            (press(init_data(tg, other), "p" * 16, seat=seats[other.id]), 409,
             said("not_your_turn")),
            (press(init_data(tg, dan), "d" * 16), 403, said("not_playing")),
            (press(mine, "v" * 16, version=table.match.version - 1), 409, said("stale")),
            (press(mine, "w" * 16, version=table.match.version + 1), 409, said("stale")),
            (press(mine, "b" * 16, action="bid:11Z"), 409, None),  # not a legal bid
            (press(mine, "k" * 16, kind="l"), 400, said("bad_button")),
            (press(mine, "q" * 16, kind=None), 400, said("bad_button")),
            (press(mine, "s" * 16, seat="0"), 400, said("bad_button")),
            (press(mine, "S" * 16, seat=-1), 400, said("bad_button")),
            (press(mine, "V" * 16, version=True), 400, said("bad_button")),
            (press(mine, "W" * 16, version="3"), 400, said("bad_button")),
            (press(mine, "x" * 16, action="bid:" + "6" * 60), 400, said("bad_button")),
            (press(mine, "y" * 16, action="bid:６♠"), 400, said("bad_button")),
            (press(mine, "z" * 16, action=""), 400, said("bad_button")),
            (press(mine, "t" * 16, table="one"), 400, said("bad_button")),
            (press(mine, "T" * 16, table="²"), 400, said("bad_button")),
            (press(mine, "h" * 16, table=10**30), 400, said("bad_button")),
            (press(mine, "H" * 16, table=-table.id), 400, said("bad_button")),
            (press(mine, "u" * 16, table=999), 404, said("table_closed")),
            (b"not json", 400, said("bad_button")),
            (b"\xff\xfe", 400, said("bad_button")),
            (b'["initData", "nonce"]', 400, said("bad_button")),
            (b"{}", 401, UNPROVED),
        ]
        for body, status, text in refused:
            answer = await post_press(url, body)
            assert answer[0] == status and answer[1]["ok"] is False, (body, answer)
            assert answer[1]["text"] == text if text else answer[1]["text"], (body, answer)
            await tg.idle()
            assert state_of(table) == before, body

        # The player acts once; the same request again is a replay: 401, nothing more.
        body = press(mine, "r" * 16)
        assert await post_press(url, body) == (200, {"ok": True, "text": ""})
        after = state_of(table)
        assert after[0] == before[0] + 1
        assert await post_press(url, body) == (401, {"ok": False, "text": UNPROVED})
        await tg.idle()
        assert state_of(table) == after


async def test_another_table_and_the_first_touch(tg: FakeTelegram, tmp_path: Path) -> None:
    """After a restart nothing is loaded; the Mini App's requests load their tables. A member
    of a table's group who plays at another table reads it as a spectator and cannot act
    there; a player of another group's table may not read it at all."""
    ours, theirs = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")], \
        [tg.add_user(n) for n in ("Dan", "Eve", "Fay")]
    gil = tg.add_user("Gil")
    groups = tg.add_group("Ours", [*ours, gil]), tg.add_group("Theirs", [*theirs, gil])
    db = tmp_path / "bot.db"
    async with bot_with_webapp(tg, db) as (hub, url):
        ids = [(await start_game(tg, hub, g, u)).id for g, u in zip(groups, (ours, theirs),
                                                                    strict=True)]
        stored = [state_of(hub.services.tables.by_id[i]) for i in ids]

    async with bot_with_webapp(tg, db, touch=False) as (hub, url):
        tables = hub.services.tables.by_id
        assert tables == {}  # every message showed its table: nothing loaded at start-up
        ann = ours[0]
        status, page = await get_page(url, init_data(tg, ann), ids[1])  # loads their table
        assert (status, page) == (403, {"ok": False, "text": said("members_only")})
        assert set(tables) == {ids[1]}
        status, page = await get_page(url, init_data(tg, gil), ids[1])
        assert status == 200
        their = tables[ids[1]]
        assert state_of(their) == stored[1]
        assert page["seat"] is None and page["version"] == stored[1][0]
        assert page["drawing"] == plugin("preferans").miniapp(their.match.state.view(None),
                                                    context(their, EN))
        answer = await post_press(url, press_body(their, init_data(tg, gil), "a" * 16))
        assert answer == (403, {"ok": False, "text": said("not_playing")})
        await tg.idle()
        assert state_of(their) == stored[1]

        # Our table, untouched since the restart, is loaded by its player's tap and goes on.
        our_id = ids[0]
        assert our_id not in tables
        async with ClientSession() as http, http.get(url + "api/sheet", params={
                "initData": init_data(tg, ann), "table": str(our_id)}) as sheet:
            assert sheet.status == 200  # a read loads it too
        our = tables[our_id]
        assert state_of(our) == stored[0]
        answer = await post_press(url, press_body(our, init_data(tg, to_act(our, ours)),
                                                  "b" * 16))
        assert answer == (200, {"ok": True, "text": ""})
        await tg.idle()
        assert our.match is not None and our.match.version == stored[0][0] + 1
        assert (await hub.services.store.tables.get_table(our_id)).last_seq == stored[0][3] + 1


async def test_a_game_that_has_ended_is_read_as_it_ended(tg: FakeTelegram,
                                                         tmp_path: Path) -> None:
    """A Mini App left open on a game that has ended (here by /leave and the others' votes
    after one deal: a game stopped before any deal ended is abandoned, with no score) still
    reads its last look and its final score, a spectator's look keeps the hands hidden, and a
    tap there is refused and changes nothing."""
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    eve = tg.add_user("Eve")
    group = tg.add_group("Cards", [*users, eve])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await start_game(tg, hub, group, users)
        while not table.match.outputs:  # one deal, by buttons
            assert await press_first(tg, users)
        tap = press_body(table, init_data(tg, to_act(table, users)), "c" * 16)
        await end_by_vote(tg, group, users, "/leave", "🏁")
        assert table.id not in hub.services.tables.by_id and table.row.status == "finished"
        ended = state_of(table)
        expected = sheet(table, EN)
        assert expected["score"] and expected["settlement"]

        status, look = await get_page(url, init_data(tg, users[0]), table.id)
        assert status == 200 and look["version"] == table.match.version
        assert look["seat"] == table.seat_of(users[0].id)
        async with ClientSession() as http, http.get(url + "api/sheet", params={
                "initData": init_data(tg, users[1]), "table": str(table.id)}) as answer:
            assert answer.status == 200 and await answer.json() == expected
        status, watched = await get_page(url, init_data(tg, eve), table.id)
        assert status == 200 and watched["seat"] is None
        assert watched["drawing"] == plugin("preferans").miniapp(table.match.state.view(None),
                                                       context(table, EN))
        async with Stream(url, init_data(tg, eve), table.id) as stream:
            while not stream.pages:
                await asyncio.sleep(0.05)
            assert json.loads(stream.take()[0])["drawing"] == watched["drawing"]

        assert await post_press(url, tap) == (404, {"ok": False, "text": said("table_closed")})
        await tg.idle()
        assert state_of(table) == ended and table.id not in hub.services.tables.by_id
