"""The pulya is ruled as on paper: each player's sections inside his sector, the mountain
nearest the centre, then the pool, then the whists, each written next to its opponent."""

from __future__ import annotations

from math import dist

import pytest

from bot.games.preferans.picture_layout import PulyaLayout, layout
from bot.ui.pictures.canvas import Rect

SHEET = Rect(24, 140, 1056, 1172)


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Ray casting; points on an edge count as inside."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x <= x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _corners(r: Rect) -> list[tuple[float, float]]:
    return [(r.left, r.top), (r.right, r.top), (r.right, r.bottom), (r.left, r.bottom)]


def _centroid(polygon: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon)


def _slots(plan: PulyaLayout, x: int) -> list[Rect]:
    return [plan.mountain[x], plan.pool[x], *(r for (w, _), r in plan.whists.items() if w == x)]


@pytest.mark.parametrize("players", [3, 4])
def test_sections_lie_in_their_players_sector(players):
    plan = layout(players, SHEET)
    assert len(plan.sectors) == len(plan.pool) == len(plan.mountain) == players
    assert len(plan.whists) == players * (players - 1)
    for x in range(players):
        for slot in _slots(plan, x):
            assert slot.width > 60 and slot.height > 60
            assert all(_inside(c, plan.sectors[x]) for c in _corners(slot)), (x, slot)
            others = [s for s in range(players) if s != x]
            assert not any(_inside(slot.centre, plan.sectors[s]) for s in others)


@pytest.mark.parametrize("players", [3, 4])
def test_mountain_then_pool_then_whists_outwards(players):
    plan = layout(players, SHEET)
    for x in range(players):
        mountain, pool = (dist(r.centre, plan.centre) for r in (plan.mountain[x], plan.pool[x]))
        whists = [dist(r.centre, plan.centre) for (w, _), r in plan.whists.items() if w == x]
        assert mountain < pool < min(whists)


@pytest.mark.parametrize("players", [3, 4])
def test_whists_on_a_player_are_written_on_his_side(players):
    plan = layout(players, SHEET)
    for (x, y), slot in plan.whists.items():
        target = _centroid(plan.sectors[y])
        nearest = min((r for (w, _), r in plan.whists.items() if w == x),
                      key=lambda r: dist(r.centre, target))
        assert nearest == slot, (x, y)


@pytest.mark.parametrize(("players", "expected"), [(3, ["top", "right", "left"]),
                                                   (4, ["top", "right", "bottom", "left"])])
def test_seats_go_clockwise(players, expected):
    """Seat 0 at the top, then clockwise: right, (bottom,) left."""
    plan = layout(players, SHEET)
    cx, cy = plan.centre
    sides = []
    for polygon in plan.sectors:
        px, py = _centroid(polygon)
        sides.append(("top" if py < cy else "bottom") if abs(py - cy) > abs(px - cx)
                     else ("left" if px < cx else "right"))
    assert sides == expected
