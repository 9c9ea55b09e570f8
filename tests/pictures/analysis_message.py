"""The picture of an analysis message for docs/: a Sochi record's deal analysed by the
engine, worded by the bot's own screen (``bot.screens.events.deal_analysis``) in English
and Russian, drawn as a chat bubble in Chromium. ``python -m tests.pictures.analysis_message
docs``."""

from __future__ import annotations

import asyncio
import html
import sys
from pathlib import Path

from bot.screens.events import deal_analysis
from bot.service.events import DealAnalysed
from bot.ui.i18n import translator
from engine.records import analyse, parse_json
from storage.rows import TableRow
from tests.webapp.harness import chromium

RECORD = Path(__file__).parent.parent / "records" / "preferans_leningrad.json"
DEAL = 6  # from 1: a 7♠ with costly cards on both sides

# No emoji font where the pictures are drawn: the message's 🔍 is drawn as a small magnifier.
LENS = ('<svg width="15" height="15" viewBox="0 0 16 16" style="vertical-align:-2px">'
        '<circle cx="6.5" cy="6.5" r="4.5" fill="#cde" stroke="#456" stroke-width="2"/>'
        '<line x1="10" y1="10" x2="15" y2="15" stroke="#456" stroke-width="2.5"/></svg>')

PAGE = """<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; background: #dfe7ee; font: 15px/1.4 "DejaVu Sans", sans-serif; }}
.bubble {{ margin: 14px; padding: 10px 14px; background: #fff; border-radius: 12px;
          box-shadow: 0 1px 2px rgba(0,0,0,.15); white-space: pre-wrap; width: 560px; }}
</style><div class="bubble">{text}</div>"""


def message(language: str) -> str:
    record = parse_json(RECORD.read_text())
    found = analyse(record, DEAL - 1)["deals"][DEAL - 1]
    assert found is not None and found["costly"]
    row = TableRow(id=1, chat_id=-1, game="preferans", rules=record["rules"], settings={},
                   seat_count=3, players=record["players"], status="finished",
                   needs_attention=False, attention_reason=None, table_message_id=None,
                   timer_deadline=None, timer_version=0, creator_id=None, last_seq=0,
                   deal_count=DEAL, created_at=0.0, updated_at=0.0, started_at=None,
                   finished_at=None)
    return deal_analysis(DealAnalysed(row, DEAL, found), translator(language)).text


async def draw(folder: Path) -> None:
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 600, "height": 300})
        for language, name in (("en", "analysis.png"), ("ru", "analysis-ru.png")):
            text = message(language).replace("<b>", "\0").replace("</b>", "\1")
            text = html.escape(text).replace("\0", "<b>").replace("\1", "</b>")
            text = text.replace("🔍", LENS)
            await page.set_content(PAGE.format(text=text))
            await page.locator(".bubble").screenshot(path=str(folder / name))


if __name__ == "__main__":
    asyncio.run(draw(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")))
