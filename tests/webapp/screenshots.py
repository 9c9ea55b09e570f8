"""The README's Mini App pictures: each game played by its players' keyboards to the middle
of a trick, then Ann's Mini App in Chromium. ``python -m tests.webapp.screenshots docs
[GAME...]``."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.seep import robot as seep_robot
from tests.bot.harness import act, open_table
from tests.bot.tabletop import make, only_table, seat_users
from tests.bot.test_joker_game import play_choice
from tests.bot.test_preferans_game import choose as preferans_choice
from tests.fakebot import FakeTelegram, FloodLimits
from tests.webapp.harness import bot_with_webapp, chromium, init_data, open_app

NAMES = ("Ann", "Bob", "Cid", "Dan")


def _preferans(state: Any, opener: int, rng: random.Random) -> str:
    return preferans_choice(state, "open", opener)


def _seep(state: Any, opener: int, rng: random.Random) -> str:
    return seep_robot.choose(state.view(state.to_act[0]), state.rules, rng)


def _joker(state: Any, opener: int, rng: random.Random) -> str:
    legal = state.legal_actions(state.to_act[0])
    return legal[len(legal) // 4] if state.phase in ("trump", "bid") else play_choice(state)


def _mid_trick(game: str, state: Any, ann: int) -> bool:
    """Ann to play, in the middle of the deal, with cards on the table."""
    if ann not in state.to_act or state.phase != "play":
        return False
    if game == "seep":
        return state.plays >= 9 and bool(state.floor.houses)
    return len(state.trick) >= 1 and sum(state.tricks) >= 2


GAMES: dict[str, tuple[int, dict[str, int], Callable[[Any, int, random.Random], str]]] = {
    "preferans": (3, {}, _preferans),
    "seep": (4, {}, _seep),
    "joker": (4, {"Deals": 1}, _joker),
}


async def shoot(game: str, out: Path, language: str = "en") -> Path:
    """Play ``game`` to the middle of a trick and save Ann's Mini App as ``out``."""
    players, options, choose = GAMES[game]
    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits(group_chat=None)) as tg:
            users = [tg.add_user(n, language_code=language if n == "Ann" else "en")
                     for n in NAMES[:players]]
            group = tg.add_group("Cards", users)
            async with bot_with_webapp(tg, Path(tmp) / "bot.db") as (hub, url):
                # Bob opens the table, so the group speaks English; Ann reads her language.
                lobby = await open_table(tg, group, [*users[1:], users[0]], game=game,
                                         options=options)
                await tg.press(users[1], lobby, text="▶ Start")
                await tg.idle()
                table = only_table(hub)
                seats = seat_users(hub, users)
                ann = next(s for s, u in seats.items() if u is users[0])
                opener = table.match.state.to_act[0]
                for _ in range(200):
                    state = table.match.state
                    if _mid_trick(game, state, ann):
                        break
                    seat = state.to_act[0]
                    press = act if game == "preferans" else make  # a discard: two taps
                    await press(tg, seats[state.controller(seat)], choose(state, opener, rng))
                async with chromium() as browser:
                    page = await open_app(browser, url, init_data(tg, users[0]), table=table.id,
                                          language=language)
                    await page.screenshot(path=str(out), full_page=True)
    return out


async def main(folder: Path, games: list[str]) -> None:
    for game in games or GAMES:
        print(await shoot(game, folder / f"miniapp-{game}.png"))
    if not games:
        print(await shoot("preferans", folder / "miniapp-preferans-ru.png", "ru"))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"), sys.argv[2:]))
