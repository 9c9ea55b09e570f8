"""Ratings: openskill's Weng-Lin Plackett-Luce model, per game kind, in each group and across
all groups.

Plackett-Luce because a game's result is one ranking of several sides: three or four
players in Preferans and Joker, two partnerships in Seep (and in Joker in pairs). The model
rates a whole ranking at once (each place against those below it, not as pairs of
duels), partners as a team, and equal places as ties; it is also the library's default,
whose defaults we keep (mu 25, sigma 25/3, beta 25/6, tau 25/300). The number shown
is the conservative estimate, mu - 3 sigma: it starts at 0 and rises as the bot grows sure.

A game counts when it ended with a settlement (played to the end, or stopped by agreement:
the table is ``finished``), at a table the bot dealt (a scorekeeper's sheet of real cards
is typed in, and may be edited after the end), with a Telegram user at every seat. The
places of ``game_results`` rank the sides; a side ranks at its best member's place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.service.tables import gives_hints, keeps_score
from engine.games import get_game
from storage.rows import FinishedGame, RatingChange, Scope, Skill
from storage.store import Storage

MODEL = PlackettLuce()
PRIOR = Skill(MODEL.mu, MODEL.sigma)  # a newcomer's rating
CAUTION = 3.0  # the conservative estimate is mu - CAUTION * sigma
SCOPES: tuple[Scope, ...] = ("group", "all")


def conservative(skill: Skill) -> float:
    return skill.mu - CAUTION * skill.sigma


def rated(game: FinishedGame) -> bool:
    """Whether a finished game counts for the ratings (not one played with hints)."""
    return (not keeps_score(game.settings) and not gives_hints(game.settings)
            and len(game.results) > 1
            and all(r.user_id is not None for r in game.results))


def sides(game: FinishedGame) -> list[list[int]]:
    """The seats of each side: the partnerships, or every seat alone."""
    spec = get_game(game.game)
    teams: list[list[int]] = spec.teams(spec.rules.from_dict(game.rules))
    return teams or [[r.seat] for r in game.results]


def changes(game: FinishedGame, before: Mapping[tuple[Scope, int], Skill]) -> list[RatingChange]:
    """The game's rating changes in both scopes; ``before``: its players' ratings by (scope,
    user), a newcomer's missing (he starts at the model's prior)."""
    if not rated(game):
        return []
    seats = {r.seat: r for r in game.results}
    teams = sides(game)
    ranks = [min(seats[s].place for s in team) for team in teams]
    found = []
    for scope in SCOPES:
        start = {s: before.get((scope, r.user_id or 0), PRIOR)
                 for s, r in seats.items()}
        after = MODEL.rate([[MODEL.rating(mu=start[s].mu, sigma=start[s].sigma) for s in team]
                            for team in teams], ranks=[float(rank) for rank in ranks])
        for team, rated_team in zip(teams, after, strict=True):
            for seat, rating in zip(team, rated_team, strict=True):
                found.append(RatingChange(game.table_id, seat, scope, seats[seat].user_id or 0,
                                          start[seat], _skill(rating)))
    return found


def _skill(rating: PlackettLuceRating) -> Skill:
    return Skill(rating.mu, rating.sigma)


async def rate(store: Storage, table_id: int) -> list[RatingChange]:
    """Rate a game that has just finished (nothing if it does not count)."""
    return await store.ratings.rate(table_id, changes)


async def rebuild(store: Storage) -> list[RatingChange]:
    """Every rating computed again from the stored results (after a change of model)."""
    return await store.ratings.rebuild(changes)


def in_group(found: Sequence[RatingChange]) -> tuple[RatingChange, ...]:
    """A game's changes in its group, by seat (what its final message shows)."""
    return tuple(sorted((c for c in found if c.scope == "group"), key=lambda c: c.seat))
