"""Who may watch a table in the Mini App: its players and its group's members; with the
lobby's "👀 Who may watch" set to "anyone with the link", anyone who has its link, and then
only as a member of the group who does not play watches: the public view (never a hand),
the score, the rules, live; not the analysis (a finished deal's hands are the group's)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from aiohttp import ClientSession

from bot.games import plugin
from bot.screens.look import context
from bot.service.tables import is_public
from tests.bot.harness import open_table
from tests.bot.tabletop import only_table
from tests.fakebot import FakeTelegram
from tests.webapp.driver import Stream
from tests.webapp.harness import bot_with_webapp, get_page, init_data, post_press
from tests.webapp.test_security import EN, press_body, said, state_of

WATCH = "👀 Who may watch in the Mini App"
READS = ("api/sheet", "api/sheet.png", "api/analysis")


@pytest.mark.parametrize("public", [False, True], ids=["group", "anyone"])
async def test_who_may_watch(tg: FakeTelegram, tmp_path: Path, public: bool) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    gil, oscar = tg.add_user("Gil"), tg.add_user("Oscar")  # in the group; not in it
    group = tg.add_group("Cards", [*users, gil])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        lobby = await open_table(tg, group, users, options={WATCH: 1} if public else None)
        shown = next(b["text"] for b in lobby.buttons if b["text"].startswith(WATCH))
        assert shown == f"{WATCH}: " + ("anyone with the link" if public else "group members")
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.settled(group)
        table = only_table(hub)
        assert is_public(table.row.settings) is public
        assert table.match is not None and table.match.state is not None
        before = state_of(table)
        spectators = plugin("preferans").miniapp(table.match.state.view(None),
                                                 context(table, EN))

        status, member = await get_page(url, init_data(tg, gil), table.id)
        assert status == 200 and member["seat"] is None and member["analysis"] is True
        assert member["drawing"] == spectators and member["drawing"]["hand"] == []

        status, page = await get_page(url, init_data(tg, oscar, start_param=str(table.id)), 0)
        async with ClientSession() as http:
            reads = {}
            for route in READS:
                async with http.get(url + route, params={
                        "initData": init_data(tg, oscar), "table": str(table.id)}) as answer:
                    reads[route] = answer.status
        if not public:
            assert (status, page) == (403, {"ok": False, "text": said("members_only")})
            assert reads == dict.fromkeys(READS, 403)
            async with ClientSession() as http, http.get(url + "api/events", params={
                    "initData": init_data(tg, oscar), "table": str(table.id)}) as answer:
                assert answer.status == 403
        else:
            assert status == 200 and page["seat"] is None and page["analysis"] is False
            assert page["drawing"] == member["drawing"] and page["drawing"]["actions"] == []
            assert {k: v for k, v in page.items() if k not in ("now", "analysis")} == \
                {k: v for k, v in member.items() if k not in ("now", "analysis")}
            assert reads == {"api/sheet": 200, "api/sheet.png": 200, "api/analysis": 403}
            async with Stream(url, init_data(tg, oscar), table.id) as stream:
                while not stream.pages:
                    await asyncio.sleep(0.01)
                assert json.loads(stream.take()[0])["drawing"] == spectators
        # Watching is all: a tap from outside the table is refused either way.
        answer = await post_press(url, press_body(table, init_data(tg, oscar), "o" * 16))
        assert answer == ((403, {"ok": False, "text": said("not_playing")}) if public else
                          (403, {"ok": False, "text": said("members_only")}))
        await tg.idle()
        assert state_of(table) == before
