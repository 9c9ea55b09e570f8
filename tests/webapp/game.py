"""One deal played by a Mini App player beside keyboard players, checked after every move:
each page shows what the panels show (and every few moves what the group's paced message
shows), and no page, event or document names a card its reader may not know."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from bot.telegram.context import BotData as Hub
from tests.bot.tabletop import make, only_table, seat_users
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat
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
from tests.webapp.harness import chromium, drawn_after, init_data, open_app, version

GROUP_EVERY = 4  # moves between two looks at the group's message (each waits for its edit)
Choose = Callable[[Any], str]  # the deal's state -> the action of the seat to act
Press = Callable[[FakeTelegram, User, str], Awaitable[object]]  # an action by a keyboard
Hidden = Callable[[Any, int | None], set[str]]  # the cards a seat (None: anyone) may not know


async def play_along(tg: FakeTelegram, hub: Hub, url: str, group: Chat, users: list[User],
                     watcher: User, choose: Choose, hidden: Hidden,
                     press: Press = make) -> list[tuple[int, str]]:
    """``users[0]`` plays the current deal by taps, the others by their keyboards
    (``press``), until it is scored; ``watcher`` (not seated) opens the group's link.
    Returns the seats and actions made by taps."""
    table = only_table(hub)
    seats = seat_users(hub, users)
    mine = next(s for s, u in seats.items() if u is users[0])
    async with chromium() as browser, contextlib.AsyncExitStack() as streams:
        page = await open_app(browser, url, init_data(tg, users[0]), table=table.id)
        watching = await open_app(browser, url, init_data(tg, watcher, start_param=str(table.id)))
        readers = {seat: await streams.enter_async_context(
            Stream(url, init_data(tg, user), table.id)) for seat, user in seats.items()}
        readers[None] = await streams.enter_async_context(
            Stream(url, init_data(tg, watcher), table.id))
        match = table.match
        scored, tapped, moves = len(match.outputs), [], 0
        assert hub.presenter is not None
        book = hub.presenter.book

        def latest(seat: int | None) -> bool:
            """The message shows the table's latest drawing (else it waits for the table's
            beat, bot/telegram/rhythm.py)."""
            return not book.slot(table, seat).pending

        while len(match.outputs) == scored:
            moves += 1
            state = match.state
            seat = state.to_act[0]
            player = seats[state.controller(seat)]
            action = choose(state)
            before = await version(page)
            if player is users[0]:
                await tap(tg, page, action)
                tapped.append((seat, action))
            else:
                await press(tg, player, action)
                await drawn_after(page, before)  # redrawn live
            await drawn_after(watching, before)
            if len(match.outputs) == scored:
                await same_as_panels(tg, group if moves % GROUP_EVERY == 0 else None,
                                     users[0], page, watching, match.state,
                                     panel_latest=latest(mine), group_latest=latest)
                assert not await dom_cards(page) & hidden(match.state, mine)
                assert not await dom_cards(watching) & hidden(match.state, None)
                for reading, reader in readers.items():
                    assert not stream_cards(reader.take()) & hidden(match.state, reading), reading
        await page.click("[data-tab=score]")
        await page.wait_for_selector("#score .sheet-text")
        score = await text_of(page, "#score")
    asked = tg.send(users[0], group, "/score")
    await tg.settled(group)
    reply = next(m for m in tg.messages(group)
                 if m.sender is tg.bot and m.message_id > asked.message_id and not m.buttons)
    assert reply.text.strip() in score
    return tapped


async def same_as_panels(tg: FakeTelegram, group: Chat | None, user: User, page: Any,
                         watching: Any, state: Any, *, panel_latest: bool,
                         group_latest: Callable[[None], bool]) -> None:
    """The player's page shows his panel's cards to play, and his hand and prompt where the
    panel shows the latest drawing (a waiting panel may wait for the table's beat); both
    pages whose turn it is and (``group`` given) the group's table message, once its paced
    edit is out, where it shows the latest drawing."""
    panel = tg.last_message(user)
    legal = await legal_cards(page)
    # (a waiting panel may still show the cards its player played from: they go when the
    # round is complete, bot/telegram/rhythm.py)
    assert legal == panel_cards(panel) or (not panel_latest and not legal)
    if panel_latest:
        assert sorted(await hand(page)) == sorted(hand_of(panel.text))
        assert await text_of(page, "#prompt-text") == panel_prompt(panel)
    shown = None
    if group is not None:
        await tg.settled(group)
        if group_latest(None):
            shown = table_message(tg, group).text.strip()
    for each in (page, watching):
        if shown is not None:
            assert await text_of(each, "#info") == shown
        turn = await each.eval_on_selector_all(
            ".seat.turn", "ss => ss.map(s => Number(s.dataset.seat))")
        assert turn == list(state.to_act)
