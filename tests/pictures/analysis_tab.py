"""The picture of the Mini App's 🔍 Analysis tab for docs/: a Preferans deal played by the
players' keyboards (a 6♠ whisted and passed, as tests/webapp/test_analysis.py plays it), then
Ann's Mini App in Chromium with the tab open, cut below the analysis. No emoji font where the
pictures are drawn: the page's 🔍 is drawn as the message picture's magnifier.
``python -m tests.pictures.analysis_tab docs``."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from tests.bot.test_preferans_game import play_deal
from tests.fakebot import FakeTelegram, FloodLimits
from tests.pictures.analysis_message import LENS
from tests.webapp.harness import bot_with_webapp, chromium, init_data, open_app, started


async def draw(out: Path) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits(group_chat=None)) as tg:
            users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
            group = tg.add_group("Cards", users)
            async with bot_with_webapp(tg, Path(tmp) / "bot.db") as (hub, url):
                table = await started(tg, hub, group, users)
                await play_deal(tg, hub, users, "whist_and_pass")
                await tg.settled(group)
                async with chromium() as browser:
                    page = await open_app(browser, url, init_data(tg, users[0]), table=table.id)
                    await page.click("#tabs button[data-tab=analysis]")
                    await page.wait_for_function("document.getElementById('analysis')"
                                                 ".innerText.includes('every hand open')")
                    await page.evaluate("""lens => {
                        for (const e of document.querySelectorAll('#tabs button, #analysis'))
                            e.innerHTML = e.innerHTML.replace('🔍', lens);
                    }""", LENS)
                    box = await page.locator("#analysis").bounding_box()
                    assert box is not None
                    await page.screenshot(path=str(out), clip={
                        "x": 0, "y": 0, "width": 420, "height": box["y"] + box["height"] + 16})
    return out


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    print(asyncio.run(draw(folder / "miniapp-analysis.png")))
