"""Playing a sampled Joker deal out to its end, every hand open.

The Monte-Carlo robot tries each of its options in each sampled deal and lets
every seat finish the deal by a quick rule that sees all the cards: short of its
bid a seat plays the cheapest card that takes the trick whatever the seats after
it play (its cheapest card if none does); with its bid made it plays the highest
card that loses, and leads its lowest. Seats that have not bid yet bid as the
heuristic robot would. The engine plays the cards, so every rule is its own.
"""

from __future__ import annotations

from engine.cards import Card, parse_card
from engine.joker.actions import Play
from engine.joker.result import DealContext
from engine.joker.robot.heuristic.bidding import bid_for
from engine.joker.robot.seat import Seat
from engine.joker.schedule import trump_mode
from engine.joker.state import State
from engine.joker.tricks import PlayCheck, trick_winner


def table(seat: Seat, hands: list[list[Card]]) -> State:
    """The engine's deal as ``seat`` sees it, the hidden hands as sampled."""
    view, rules = seat.view, seat.rules
    context = DealContext(view["deal"], view["pulka"], view["cards"], view["dealer"],
                          trump_mode(rules, view["cards"]), (0,) * rules.players)
    turned = None if view["trump_card"] is None else parse_card(view["trump_card"])
    state = State(rules, list(view["players"]), context, hands, turned)
    state.trump, state.trump_known = seat.trump, True
    state.phase = view["phase"]
    state.bids = list(view["bids"])
    state.tricks = list(view["tricks"])
    state.trick = list(seat.trick)
    state.sixes_used = set(seat.sixes_used)
    state.turn = seat.seat
    return state


def finish(state: State) -> list[int]:
    """Play ``state`` to its end by the quick rule; the tricks each seat took."""
    while not state.finished:
        who = state.to_act[0]
        if state.phase == "bid":
            bids = state.legal_bids(who)
            state.apply(who, f"bid:{bid_for(state.hands[who], state.trump, state.cards, bids)}")
        else:
            state.apply(who, str(_card(state, who)))
    return state.tricks


def _card(state: State, who: int) -> Play:
    trick = [p for _, p in state.trick]
    plays = _legal(state, who, trick)
    if len(plays) == 1:
        return plays[0]
    bid = state.bids[who]
    short = bid is not None and state.tricks[who] < bid
    later = [(who + i) % state.n for i in range(1, state.n - len(trick))]
    if short:
        sure = [p for p in plays if _holds(state, [*trick, p], later)]
        return min(sure or plays, key=_cost)
    if not trick:
        return min(plays, key=_cost)
    losing = [p for p in plays if trick_winner([*trick, p], state.trump, state.rules) != len(trick)]
    if losing:
        return max(losing, key=_cost)
    return max(plays, key=_cost) if not later else min(plays, key=_cost)


def _legal(state: State, who: int, trick: list[Play]) -> list[Play]:
    return PlayCheck(state.rules, state.hands[who], trick, state.trump,
                     state.sixes_used).legal()


def _holds(state: State, trick: list[Play], later: list[int]) -> bool:
    """Does the last play of ``trick`` win it whatever the ``later`` seats play?"""
    mine = len(trick) - 1
    if trick_winner(trick, state.trump, state.rules) != mine:
        return False
    for seat in later:
        for reply in _legal(state, seat, trick[:1]):  # the lead sets their duties
            if trick_winner([*trick, reply], state.trump, state.rules) != mine:
                return False
    return True


def _cost(play: Play) -> tuple[int, int]:
    """How much a play gives up: a natural card by its rank, a joker high most of all, a
    joker low least."""
    if play.joker is None or play.joker == "face":
        assert play.natural is not None
        return 1, play.natural.rank
    return (2, 0) if play.joker == "high" else (0, 0)
