"""Names people type or Telegram shows (``/add``, display names on tables), made fit to be
shown beside others: NFKC (full-width and styled letters become plain ones), no invisible
characters (zero-width spaces and joiners, bidi controls that reverse what follows, other
format and control characters), one space between words, capped in length. Two names are
the same player's if their ``likeness`` is equal: case and the Cyrillic or Greek letters
that look like Latin ones do not tell them apart."""

from __future__ import annotations

import unicodedata

DISPLAY_MAX = 64  # characters of a display name kept

# Letters that look like Latin ones in the usual fonts (lower case: compared after casefold).
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "0": "o", "1": "l",
})


_HIDDEN = ("Cc", "Cf", "Co", "Cn")  # control, format (zero-width, bidi), private, unassigned
_BLANK = " \u115f\u1160\u2800\u3164\uffa0"  # letters and signs that show as nothing


def clean(name: str, limit: int | None = DISPLAY_MAX) -> str:
    """The name as it is shown: visible characters only, words one space apart, at most
    ``limit`` characters ("" if nothing visible is left)."""
    normal = unicodedata.normalize("NFKC", name)
    kept = "".join(" " if ch.isspace() or ch in _BLANK else ch for ch in normal
                   if unicodedata.category(ch) not in _HIDDEN)
    return " ".join(kept.split())[:limit].strip()


def likeness(name: str) -> str:
    """What two names that a reader cannot tell apart have in common."""
    return clean(name, None).casefold().translate(_LOOKALIKES)
