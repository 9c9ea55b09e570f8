"""Seep Rules: every option of the spec's Conventions table (section 14), and the seating."""

from __future__ import annotations

from dataclasses import dataclass

from engine.base import RulesBase, RulesError, option


@dataclass(frozen=True)
class Rules(RulesBase):
    """Seep options; JSON names as in the spec's Conventions table."""

    players: int = option(4, (4, 2))
    ten_of_diamonds_points: int = option(6, (6, 2))
    majority_bonus: int = option(0, (0, 4))
    sweep_points: int = option(50, (50,))
    first_play_sweep_points: int = option(25, (25, 50))
    last_play_sweep_points: int = option(0, (0,))
    sweep_cancel: bool = option(False, (False, True))
    capture_must_be_maximal: bool = option(True, (True, False))
    bid_throw_last_resort: bool = option(True, (True, False))
    absorb_sets: str = option("mandatory", ("mandatory", "optional", "singles"))
    break_partner_house: bool = option(True, (True, False))
    break_with_floor_cards: bool = option(False, (False, True))
    max_houses: str | int = option("unlimited", ("unlimited", 2))
    under_nine_counts: str = option("score", ("score", "cards"))
    bazzi_target: int = option(100, (100, 200))
    bazzi_overflow: str = option("discard", ("discard", "carry"))
    bazzis: int = option(1, kind=int, offered=(1, 2, 3, 5))
    dealer_rotation: str = option("losing_team", ("losing_team", "simple"))
    show_capture_totals: bool = option(False, (False, True))

    def check(self) -> None:
        if self.bazzis < 1:
            raise RulesError("rules option bazzis: the match needs at least 1 bazzi")

    # Seating (spec section 3): seats clockwise, play to the right.

    def next_seat(self, seat: int) -> int:
        """The seat to the right: ``(s + 3) mod 4`` with four players, the other one with two."""
        return (seat - 1) % self.players

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.players == 4 else None

    def team(self, seat: int) -> int:
        """Team index: 0 = NS (seats 0, 2), 1 = EW (seats 1, 3); with two players the seat."""
        return seat % 2

    def team_name(self, team: int) -> str | int:
        """As replay prints a bazzi winner: "NS"/"EW", or the seat number with two players."""
        return ("NS", "EW")[team] if self.players == 4 else team

    @property
    def teams(self) -> list[list[int]]:
        return [[0, 2], [1, 3]] if self.players == 4 else [[0], [1]]

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat in a deal (48 plays in all)."""
        return 48 // self.players
