"""A whole Preferans deal: Ann plays it by taps in the Mini App, Bob and Cid by their
keyboards. After every move each page shows what the panels and the group show, and no page,
event or document names a card its reader may not know."""

from __future__ import annotations

import contextlib
from pathlib import Path

from tests.bot.harness import act, open_table
from tests.bot.tabletop import only_table, seat_users
from tests.bot.test_preferans_game import choose
from tests.bot.test_privacy import concealed_from
from tests.fakebot import FakeTelegram
from tests.webapp.driver import (
    Stream,
    dom_cards,
    hand,
    hand_of,
    legal_cards,
    panel_cards,
    panel_prompt,
    stream_cards,
    table_message,
    tap,
    text_of,
)
from tests.webapp.harness import bot_with_webapp, chromium, drawn_after, init_data, open_app, version


async def test_a_deal_by_taps_beside_keyboards(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    dan = tg.add_user("Dan")  # watches
    group = tg.add_group("Cards", [*users, dan])
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        lobby = await open_table(tg, group, users)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        table = only_table(hub)
        seats = seat_users(hub, users)
        ann = next(s for s, u in seats.items() if u is users[0])
        panel_button = tg.last_message(users[0]).buttons[-1]
        assert panel_button["web_app"]["url"] == f"{url}?table={table.id}"
        group_button = table_message(tg, group).buttons[-1]
        assert group_button["url"] == f"https://t.me/{tg.bot.username}?startapp={table.id}"
        async with chromium() as browser, contextlib.AsyncExitStack() as streams:
            page = await open_app(browser, url, init_data(tg, users[0]), table=table.id)
            watching = await open_app(browser, url, init_data(tg, dan, start_param=str(table.id)))
            readers = {seat: await streams.enter_async_context(
                Stream(url, init_data(tg, user), table.id)) for seat, user in seats.items()}
            readers[None] = await streams.enter_async_context(
                Stream(url, init_data(tg, dan), table.id))
            match = table.match
            opener = match.state.to_act[0]
            moves = 0
            while not match.outputs:
                state = match.state
                player = seats[state.controller(state.to_act[0])]
                action = choose(state, "whist_and_pass", opener)
                before = await version(page)
                if player is users[0]:
                    await tap(tg, page, action)
                    moves += 1
                else:
                    await act(tg, player, action)
                    await drawn_after(page, before)  # redrawn live
                await drawn_after(watching, before)
                if match.outputs:
                    break
                state = match.state
                # The same state as the panels and the group's message.
                panel = tg.last_message(users[0])
                assert sorted(await hand(page)) == sorted(hand_of(panel.text))
                assert await legal_cards(page) == panel_cards(panel)
                assert await text_of(page, "#prompt-text") == panel_prompt(panel)
                shown = table_message(tg, group).text.strip()
                assert await text_of(page, "#info") == shown
                assert await text_of(watching, "#info") == shown
                turn = await page.eval_on_selector_all(
                    ".seat.turn", "ss => ss.map(s => Number(s.dataset.seat))")
                assert turn == list(state.to_act)
                # Nobody is shown a card hidden from him.
                assert not await dom_cards(page) & concealed_from(state, ann)
                assert not await dom_cards(watching) & concealed_from(state, None)
                for seat, reader in readers.items():
                    assert not stream_cards(reader.take()) & concealed_from(state, seat), seat
            assert moves >= 13  # the bid, the discard, the contract and ten cards
            assert len(match.outputs) == 1 and match.outputs[0]["contract"] == "6S"
            await page.click("[data-tab=score]")
            score = await text_of(page, "#score")
            tg.send(users[0], group, "/score")
            await tg.idle()
            assert tg.last_message(group).text.strip() in score
