"""The Mini App's server as an attacker meets it: a forged, expired or replayed request gets
401 and changes nothing; a user sees only his own seat's view (a spectator the public one)
and acts only for his seat; bad input gets a clear refusal and changes nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from bot.screens import refusals
from bot.screens.look import context
from bot.service.outcome import Refusal
from bot.ui.i18n import translator
from bot.webapp.auth import MAX_AGE, sign
from bot.webapp.games import DRAW
from tests.bot.tabletop import seat_users, snapshot
from tests.fakebot import FakeTelegram
from tests.webapp.harness import bot_with_webapp, get_page, init_data, post_press, started

EN = translator("en")


def said(code: str) -> str:
    return refusals.text(Refusal(code), EN)


async def test_only_a_proved_user_reads_or_acts(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    dan = tg.add_user("Dan")
    group = tg.add_group("Cards", [*users, dan])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await started(tg, hub, group, users)
        state = table.match.state
        seats = {u.id: s for s, u in seat_users(hub, users).items()}
        to_act = state.to_act[0]
        player = next(u for u in users if seats[u.id] == to_act)

        def press(init: str, nonce: str, **fields: Any) -> dict[str, Any]:
            return {"initData": init, "nonce": nonce, "table": table.id, "kind": "a",
                    "version": table.match.version, "seat": to_act, "action": "bid:pass",
                    **fields}

        forged = sign({"auth_date": str(int(time.time())), "user": f'{{"id":{player.id}}}'},
                      "1:not-this-bots-token-0000000000")
        expired = init_data(tg, player, auth_date=time.time() - MAX_AGE - 60)
        before = snapshot(hub)
        for init in (forged, expired, init_data(tg, player)[:-1], ""):
            assert (await post_press(url, press(init, "n" * 16)))[0] == 401
            assert (await get_page(url, init, table.id))[0] == 401
            async with ClientSession() as http, http.get(url + "api/events", params={
                    "initData": init, "table": str(table.id)}) as answer:
                assert answer.status == 401
        assert (await post_press(url, press(init_data(tg, player), "")))[0] == 401  # no nonce
        assert snapshot(hub) == before

        # A user's page is his seat's view; a spectator's the public one.
        for user in users:
            status, page = await get_page(url, init_data(tg, user), table.id)
            assert status == 200 and page["seat"] == seats[user.id]
            assert page["drawing"]["hand"] == state.view(seats[user.id])["hand"]
        status, page = await get_page(url, init_data(tg, dan, start_param=str(table.id)), 0)
        assert status == 200 and page["seat"] is None
        assert page["drawing"] == DRAW["preferans"](state.view(None), context(table, EN))
        assert page["drawing"]["hand"] == [] and page["drawing"]["actions"] == []

        # Nobody acts for a seat but his own; bad input is refused; nothing changes.
        other = next(u for u in users if u is not player)
        refused = [
            (press(init_data(tg, other), "o" * 16), 200, said("not_your_turn")),
            (press(init_data(tg, dan), "d" * 16), 200, said("not_playing")),
            (press(init_data(tg, player), "v" * 16, version=0), 200, said("stale")),
            (press(init_data(tg, player), "b" * 16, action="bid:11Z"), 200, None),
            (press(init_data(tg, player), "k" * 16, kind="l"), 400, said("bad_button")),
            (press(init_data(tg, player), "s" * 16, seat="0"), 400, said("bad_button")),
            (press(init_data(tg, player), "x" * 16, action="bid:" + "6" * 60), 400,
             said("bad_button")),
            (press(init_data(tg, player), "t" * 16, table="one"), 400, said("bad_button")),
            (press(init_data(tg, player), "u" * 16, table=999), 404, said("table_closed")),
        ]
        for body, status, text in refused:
            answer = await post_press(url, body)
            assert answer[0] == status and answer[1]["ok"] is False, (body, answer)
            assert answer[1]["text"] == text if text else answer[1]["text"], (body, answer)
            assert snapshot(hub)[:2] == before[:2]

        # The player acts once; the same request again is a replay: 401, nothing more.
        body = press(init_data(tg, player), "r" * 16)
        assert await post_press(url, body) == (200, {"ok": True, "text": ""})
        after = snapshot(hub)
        assert after[0] == before[0] + 1
        assert (await post_press(url, body))[0] == 401
        assert snapshot(hub) == after
        await tg.idle()
