"""Spec section 13: the scoring options, their per-variant defaults, and bad values rejected."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main
from engine.preferans.rules import Rules

SCORING_DEFAULTS = {  # option: (Sochi, Leningrad, Rostov), as the Conventions table gives them
    "pool": (10, 20, 10),
    "walkaway": (False, False, False),
    "talon_premium": (True, False, False),
    "ten_mode": ("whisted", "checked", "whisted"),
    "whist_style": ("greedy", "gentleman", "greedy"),
    "failed_whist_rate": ("cost", "cost", "half_cost"),
    "both_whist_shortfall": ("own_half",) * 3,
    "consolation_to_passer": (False, False, True),
    "consolation_to_dealer": (True, True, True),
    "consolation_rate": ("contract",) * 3,
    "miser_consolation": (False,) * 3,
    "raspasy_mode": ("mountain", "mountain", "whists"),
    "raspasy_talon": ("lead_two", "lead_two", "unused"),
    "sochi_progression": (False,) * 3,
    "peter_third_state": ("classic",) * 3,
    "exit_needs_whist": (True,) * 3,
    "zero_trick_reward": ("writeoff", "writeoff", "pool"),
    "rostov_raspasy_rate": (5,) * 3,
    "pool_overflow": ("help",) * 3,
    "help_rate": (10, 20, 10),
    "settlement_rounding": ("exact",) * 3,
}


@pytest.mark.parametrize("option", sorted(SCORING_DEFAULTS))
def test_variant_defaults(option: str) -> None:
    for variant, expected in zip(("sochi", "peter", "rostov"), SCORING_DEFAULTS[option],
                                 strict=True):
        assert getattr(Rules.from_dict({"variant": variant}), option) == expected, variant


def test_k() -> None:
    ks = [Rules.from_dict({"variant": v}).k for v in ("sochi", "leningrad", "rostov")]
    assert ks == [1, 2, 1]


RECORD = Path(__file__).parent.parent / "records" / "preferans_rostov.json"


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"variant": "rostov", "pool": 4, "consolation": True}, "unknown rules option"),
        ({"variant": "rostov", "pool": 4, "consolation_rate": "lots"}, "consolation_rate"),
        ({"variant": "rostov", "pool": 4, "settlement_rounding": 2}, "settlement_rounding"),
        ({"variant": "rostov", "pool": 0}, "pool"),
        ({"variant": "rostov", "pool": 4, "help_rate": "10"}, "help_rate"),
        ({"variant": "rostov", "pool": 4, "raspasy_talon": "lead_two"}, "raspasy"),
    ],
)
def test_bad_options_in_a_record_are_rejected(tmp_path: Any, rules: dict, message: str) -> None:
    record = json.loads(RECORD.read_text())
    record["rules"] = rules
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["replay", str(path)]) == 2
    assert out.getvalue() == ""
    assert err.getvalue().count("\n") == 1 and message in err.getvalue()
