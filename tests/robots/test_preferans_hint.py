"""Hints for learners (issue 34): at every decision of robot-played deals the hint is the
robot's own action for that view (same generator, same budget), legal, with a reason
whose figures fit the decision."""

from __future__ import annotations

import json
import random
from collections import Counter

from engine.preferans import SPEC, Rules
from engine.preferans.robot import Budget, choose, hint
from tests.robots.helpers import decision_points, matches

QUICK = Budget(samples=4, seconds=None)
REASONS = {"hand_tricks", "hand_short", "miser", "defence", "card", "only_card", "open", "claim"}


def test_the_hint_is_the_robots_action_with_a_reason() -> None:
    rules = Rules.from_dict({})
    reasons: Counter[str] = Counter()
    for match in matches(SPEC, rules, 6, "hint"):
        state = match.state
        for seat in decision_points(match, lambda s, seat: choose(
                s.view(s.controller(seat)), rules, random.Random(s.version), QUICK)):
            view = json.loads(json.dumps(state.view(state.controller(seat))))
            given = hint(view, rules, random.Random(state.version), QUICK)
            assert given.action == choose(view, rules, random.Random(state.version), QUICK)
            assert given.action in state.legal_actions(seat)
            assert given.why in REASONS
            reasons[given.why] += 1
            if given.why in ("hand_tricks", "hand_short", "defence"):
                assert 0 <= given.figures["tricks"] <= 10
            if given.why == "card":
                assert given.figures["deals"] >= 1
                assert 0 <= given.figures["tricks"] <= 10
    assert reasons["card"] and reasons["hand_tricks"] + reasons["hand_short"]
