"""Colours and type sizes shared by every picture: dark ink on light paper, sizes for a phone.

Pictures are 1080 px wide; a phone shows them at about a third of that, so no
text is drawn smaller than ``SMALLEST``.
"""

from __future__ import annotations

WIDTH = 1080
MARGIN = 24

PAPER = "#FFFFFF"
INK = "#1A1A1A"
MUTED = "#5F6368"
LINE = "#4A4A4A"
GRID = "#C8C8C8"
SHADE = "#F1F3F4"

POOL = "#1B5E20"
MOUNTAIN = "#B71C1C"
WHISTS = "#0D47A1"
GAIN = "#1B5E20"
LOSS = "#B71C1C"
PREMIUM = "#8D6E00"

# One light tint per seat (sectors, name labels, legend rows); the ink reads on all of them.
SEAT_TINTS = ("#DCEBFA", "#DFF1DA", "#FBEACC", "#F3DDF0")

STAR = "★"  # a premium (Joker), a bazzi won (Seep)

TITLE = 34
BODY = 30
SMALL = 24
SMALLEST = 20
