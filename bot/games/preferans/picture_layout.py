"""Where a pulya's sections lie, drawn as players rule the sheet on paper.

Three nested rectangles around a circle holding the pool target: the inner one
is the mountain (гора), the ring around it the pool (пуля), the outer ring the
whists (висты). Lines from the centre cut them into one sector per player.

- 3 players: the lines run to the two top corners and straight down, so seat 0
  has the top and seats 1 and 2 the right and left sides (each wrapping round
  the bottom corner). A sector's whists are split where it meets each opponent.
- 4 players: the diagonals give seat 0 the top, then clockwise 1 right, 2
  bottom, 3 left; the whists are split in three, the opposite player's middle.

Seats go clockwise as in the records. Text goes into ``Rect`` slots chosen
inside each region; names go in bands of ``NAME_BAND`` above and below the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ui.pictures.canvas import Rect

NAME_BAND = 52
NAME_GAP = 8
CIRCLE = 64
SLOT_PAD = 8

Point = tuple[float, float]


@dataclass(frozen=True)
class Band:
    """Thickness of the whist and pool rings on one side of the sheet."""

    whists: float
    pool: float


@dataclass
class PulyaLayout:
    sheet: Rect
    centre: Point
    lines: list[tuple[Point, ...]]  # polylines, the rectangles' outlines included
    sectors: list[list[Point]]  # one polygon per seat
    pool: list[Rect]
    mountain: list[Rect]
    whists: dict[tuple[int, int], Rect]  # (writer, target)
    names: list[tuple[Rect, str]]  # per seat: where its name goes, and its alignment


def layout(players: int, sheet: Rect) -> PulyaLayout:
    return _three(sheet) if players == 3 else _four(sheet)


def _rings(sheet: Rect, top: Band, side: Band, bottom: Band) -> tuple[Rect, Rect, Point]:
    """The pool rectangle, the mountain rectangle and the centre."""
    pool = Rect(sheet.left + side.whists, sheet.top + top.whists,
                sheet.right - side.whists, sheet.bottom - bottom.whists)
    mountain = Rect(pool.left + side.pool, pool.top + top.pool,
                    pool.right - side.pool, pool.bottom - bottom.pool)
    return pool, mountain, mountain.centre


def _outlines(*rects: Rect) -> list[tuple[Point, ...]]:
    return [((r.left, r.top), (r.right, r.top), (r.right, r.bottom), (r.left, r.bottom),
             (r.left, r.top)) for r in rects]


def _corners(r: Rect) -> tuple[Point, Point, Point, Point]:
    """Top left, top right, bottom right, bottom left."""
    return (r.left, r.top), (r.right, r.top), (r.right, r.bottom), (r.left, r.bottom)


def _triangle_slot(m: Rect, centre: Point, side: str, depth: float) -> Rect:
    """The largest rectangle ``depth`` deep against one side of the mountain rectangle
    that stays in the triangle this side makes with the centre."""
    cx, cy = centre
    if side in ("top", "bottom"):
        half = (m.width / 2) * (1 - depth / (cy - m.top))
        top = m.top if side == "top" else m.bottom - depth
        return Rect(cx - half, top, cx + half, top + depth).inset(SLOT_PAD)
    half = (m.height / 2) * (1 - depth / (cx - m.left))
    left = m.left if side == "left" else m.right - depth
    return Rect(left, cy - half, left + depth, cy + half).inset(SLOT_PAD)


def _split(start: float, end: float, parts: int) -> list[float]:
    return [start + (end - start) * k / parts for k in range(parts + 1)]


def _three(s: Rect) -> PulyaLayout:
    top, side = Band(whists=130, pool=90), Band(whists=150, pool=70)
    p, m, centre = _rings(s, top, side, top)
    cx, cy = centre
    tl, tr, br, bl = _corners(s)
    up_left = [centre, (m.left, m.top), (p.left, p.top), tl]  # the mitres, from the centre
    up_right = [centre, (m.right, m.top), (p.right, p.top), tr]
    down = [centre, (cx, s.bottom)]
    lines = [*_outlines(s, p, m), tuple(up_left), tuple(up_right), tuple(down),
             ((cx, s.top), (cx, p.top)), (bl, (p.left, p.bottom)), (br, (p.right, p.bottom))]
    sectors = [[*up_left, *up_right[:0:-1]], [*up_right, br, down[1]],
               [*down, bl, *up_left[:0:-1]]]
    low = Rect(m.left, cy + CIRCLE, cx, m.bottom)  # the left sector's mountain, below the circle
    mountain = [_triangle_slot(m, centre, "top", 0.4 * (cy - m.top)),
                Rect(cx, low.top, m.right, low.bottom).inset(SLOT_PAD), low.inset(SLOT_PAD)]
    pool = [Rect(m.left, p.top, m.right, m.top).inset(SLOT_PAD),
            Rect(cx, m.bottom, p.right, p.bottom).inset(SLOT_PAD),
            Rect(p.left, m.bottom, cx, p.bottom).inset(SLOT_PAD)]
    whists = {
        (0, 2): Rect(p.left, s.top, cx, p.top), (0, 1): Rect(cx, s.top, p.right, p.top),
        (1, 0): Rect(p.right, p.top, s.right, p.bottom), (1, 2): Rect(cx, p.bottom, p.right,
                                                                      s.bottom),
        (2, 0): Rect(s.left, p.top, p.left, p.bottom), (2, 1): Rect(p.left, p.bottom, cx,
                                                                    s.bottom),
    }
    above = Rect(s.left, s.top - NAME_GAP - NAME_BAND, s.right, s.top - NAME_GAP)
    below = Rect(s.left, s.bottom + NAME_GAP, s.right, s.bottom + NAME_GAP + NAME_BAND)
    names = [(above, "center"), (Rect(cx, below.top, below.right, below.bottom), "right"),
             (Rect(below.left, below.top, cx, below.bottom), "left")]
    return PulyaLayout(s, centre, lines, sectors, pool, mountain,
                       {k: r.inset(SLOT_PAD) for k, r in whists.items()}, names)


def _four(s: Rect) -> PulyaLayout:
    across, side = Band(whists=130, pool=90), Band(whists=170, pool=110)
    p, m, centre = _rings(s, across, side, across)
    outer, pool_corners, mountain_corners = _corners(s), _corners(p), _corners(m)
    lines = [*_outlines(s, p, m),
             *((o, q, r, centre) for o, q, r in zip(outer, pool_corners, mountain_corners,
                                                     strict=True))]
    xs, ys = _split(p.left, p.right, 3), _split(p.top, p.bottom, 3)
    for x in xs[1:3]:
        lines += [((x, s.top), (x, p.top)), ((x, p.bottom), (x, s.bottom))]
    for y in ys[1:3]:
        lines += [((s.left, y), (p.left, y)), ((p.right, y), (s.right, y))]
    sectors = [[centre, mountain_corners[k], pool_corners[k], outer[k], outer[(k + 1) % 4],
                pool_corners[(k + 1) % 4], mountain_corners[(k + 1) % 4]] for k in range(4)]
    mountain = [_triangle_slot(m, centre, side_name, depth) for side_name, depth in
                (("top", 0.4 * (centre[1] - m.top)), ("right", side.pool),
                 ("bottom", 0.4 * (centre[1] - m.top)), ("left", side.pool))]
    pool = [Rect(m.left, p.top, m.right, m.top), Rect(m.right, m.top, p.right, m.bottom),
            Rect(m.left, m.bottom, m.right, p.bottom), Rect(p.left, m.top, m.left, m.bottom)]
    whists: dict[tuple[int, int], Rect] = {}
    for k, target in enumerate((3, 2, 1)):  # seat 0 (top), left to right
        whists[0, target] = Rect(xs[k], s.top, xs[k + 1], p.top)
    for k, target in enumerate((3, 0, 1)):  # seat 2 (bottom), left to right
        whists[2, target] = Rect(xs[k], p.bottom, xs[k + 1], s.bottom)
    for k, target in enumerate((0, 3, 2)):  # seat 1 (right), top to bottom
        whists[1, target] = Rect(p.right, ys[k], s.right, ys[k + 1])
    for k, target in enumerate((0, 1, 2)):  # seat 3 (left), top to bottom
        whists[3, target] = Rect(s.left, ys[k], p.left, ys[k + 1])
    above = Rect(s.left, s.top - NAME_GAP - NAME_BAND, s.right, s.top - NAME_GAP)
    below = Rect(s.left, s.bottom + NAME_GAP, s.right, s.bottom + NAME_GAP + NAME_BAND)
    third = s.width / 3
    names = [(Rect(s.left + third, above.top, s.right - third, above.bottom), "center"),
             (Rect(s.right - third, above.top, s.right, above.bottom), "right"),
             (below, "center"),
             (Rect(s.left, above.top, s.left + third, above.bottom), "left")]
    return PulyaLayout(s, centre, lines, sectors, [r.inset(SLOT_PAD) for r in pool], mountain,
                       {k: r.inset(SLOT_PAD) for k, r in whists.items()}, names)
