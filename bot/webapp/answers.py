"""What a Mini App's tap is answered with: the HTTP status and the words a button's alert
would say (in the reader's language)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.screens import refusals
from bot.service.outcome import Outcome, Refusal
from bot.ui.i18n import Translate

# A press the table refuses: 409 (the table is not in a state that takes it: stale, not the
# reader's turn, not a legal move, paused, over), unless it is not the reader's table at all (or not
# his to keep the score of).
CONFLICT = 409
REFUSED = {"not_playing": 403, "keepers_only": 403, "table_closed": 404, "not_saved": 503}


def answered(out: Outcome, tr: Translate, names: Sequence[str]) -> tuple[int, dict[str, Any]]:
    said = out.refusal or (Refusal(out.note, out.note_params) if out.note else None)
    text = "" if said is None else refusals.text(said, tr, names)
    status = 200 if out.refusal is None else REFUSED.get(out.refusal.code, CONFLICT)
    return status, {"ok": out.ok, "text": text}
