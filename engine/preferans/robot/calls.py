"""The Monte-Carlo robot's calls: auction, discard, contract and whist.

Each call is weighed over sampled deals of the unseen cards. In a sample the
solver counts the declarer's tricks in each strain worth a look (first hand
leads, every hand open), and the tricks become the seat's balance in whists
(``worth``) under the calls that would follow: the defenders whist when their
side's tricks meet the obligation, one whists when they have a trick or two, and
both pass on a lay-down; a partner defender calls as the heuristic robot would on
his sampled hand. The call worth most on average is made. Passing in the auction
is worth nothing: the deal is then someone else's, or raspasy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from engine.cards import ACE, KING, QUEEN, Card, Suit
from engine.preferans.bids import MISER, OBLIGATION, TRICK_BIDS, bid_rank, level, trump
from engine.preferans.dds import Goal, tricks
from engine.preferans.robot.heuristic.calls import whist_call
from engine.preferans.robot.heuristic.estimate import (
    declarer_tricks,
    defence_tricks,
    miser_dangers,
)
from engine.preferans.robot.knowledge import SEARCH_LIMIT, Knowledge
from engine.preferans.robot.layouts import full_layout
from engine.preferans.robot.sampling import Dealer, Sample
from engine.preferans.robot.worth import Worth
from engine.preferans.whisting import Whisting
from engine.robot_budget import Budget

Strain = Suit | None
STRAINS: tuple[Strain, ...] = (*Suit, None)
STRAIN_SLACK = 1.5  # strains within this many estimated tricks of the best are solved
DISCARDS_PER_STRAIN = 2  # discards solved per strain, the best by the hand estimate
MISER_DISCARDS = 4  # misère discards solved, the safest by the hand estimate
MISER_LOOK = 2  # misère is weighed with at most this many catchable cards in hand
MISER_CAP = 3  # misère tricks are counted up to this many (more is as bad)
# The solver's defenders see each other's cards; at the table they do not, and a partner
# may be weaker: a whist is weighed as if the declarer took this part of a trick more.
DEFENCE_DISCOUNT = 0.5


def _strains(cards: Sequence[Card], out: Sequence[Card] = ()) -> list[Strain]:
    """The strains the hand estimate puts within ``STRAIN_SLACK`` of the best."""
    guess = {s: declarer_tricks(cards, s, out) for s in STRAINS}
    best = max(guess.values())
    return [s for s in STRAINS if guess[s] >= best - STRAIN_SLACK]


def _keep(cards: Sequence[Card], strain: Strain) -> list[Card]:
    """The declarer's ten for a strain, by a quick rule: keep trumps, aces, guarded kings
    and queens, and long suits; throw low cards from short suits."""
    length = {suit: sum(1 for c in cards if c.suit == suit) for suit in Suit}

    def value(card: Card) -> int:
        n = length[card.suit]  # type: ignore[index]
        honour = {ACE: 40, KING: 25 if n >= 2 else 0, QUEEN: 15 if n >= 3 else 0}
        return 100 * (card.suit == strain) + honour.get(card.rank, 0) + card.rank + 3 * n

    return sorted(cards, key=value, reverse=True)[:10]


def _discards(cards: Sequence[Card], strain: Strain | str, count: int) -> list[tuple[Card, Card]]:
    """The ``count`` best discards for a strain (or misère) by the hand estimate."""
    def score(pair: tuple[Card, Card]) -> tuple[float, int]:
        kept = [c for c in cards if c not in pair]
        if strain == MISER:
            return -miser_dangers(kept, pair), sum(c.rank for c in pair)
        return declarer_tricks(kept, strain, pair), -sum(c.rank for c in pair)

    return sorted(combinations(cards, 2), key=score, reverse=True)[:count]


def _split(k: Knowledge, declarer: int, total: int) -> list[int]:
    """Tricks per seat: the declarer's, and the rest shared by the defenders."""
    out = [0] * k.rules.players
    out[declarer] = total
    defenders = [s for s in k.active if s != declarer]
    out[defenders[0]] = (10 - total + 1) // 2
    out[defenders[1]] = (10 - total) // 2
    return out


def _defenders(k: Knowledge, declarer: int) -> tuple[int, int]:
    """The first and the second defender."""
    i = k.active.index(declarer)
    return k.active[(i + 1) % 3], k.active[(i + 2) % 3]


def _assumed_calls(k: Knowledge, declarer: int, contract: str,
                   total: int) -> list[tuple[int, str]]:
    """How the defenders are assumed to answer a contract the declarer makes ``total`` of."""
    first, second = _defenders(k, declarer)
    side = 10 - total
    if side >= OBLIGATION[level(contract)]:
        return [(first, "whist"), (second, "whist")]
    if side:
        return [(first, "whist"), (second, "pass")]
    return [(first, "pass"), (second, "pass")]


def _as_declarer(k: Knowledge, w: Worth, contract: str, total: int,
                 talon: Sequence[Card]) -> float:
    """The robot's balance declaring ``contract`` and taking ``total`` tricks."""
    seat = k.seat
    if contract == MISER:
        return float(w.miser(seat, _split(k, seat, total), talon)[seat])
    calls = [] if level(contract) == 10 and k.rules.ten_mode == "checked" else (
        _assumed_calls(k, seat, contract, total))
    bid = k.view["high_bid"] or contract
    return float(w.contract(seat, bid, contract, _split(k, seat, total), calls, talon)[seat])


def _contracts(min_rank: int, strains: Sequence[Strain]) -> list[str]:
    return [c for c in TRICK_BIDS if bid_rank(c) >= min_rank and trump(c) in strains]


class TooLong(Exception):
    """A sampled deal the solver could not finish within the search limit: skipped."""


def _declarer_tricks(k: Knowledge, sample: Sample, kept: Sequence[Card], strain: Strain | str,
                     cap: int = 10) -> int:
    """The robot's tricks as declarer in this deal, holding ``kept``."""
    hands = dict(sample.hands)
    hands[k.seat] = list(kept)
    me = k.active.index(k.seat)
    goal = Goal.miser(me) if strain == MISER else Goal.declarer(me)
    layout = full_layout(k, hands, None if strain == MISER else strain)
    return _solved(tricks(layout, goal, cap, SEARCH_LIMIT))


def _solved(found: int | None) -> int:
    if found is None:
        raise TooLong
    return found


class Tally:
    """Sums of the options' worth over the samples."""

    def __init__(self) -> None:
        self.sums: dict[str, float] = {}
        self.count = 0

    def add(self, worth: dict[str, float]) -> None:
        self.count += 1
        for option, value in worth.items():
            self.sums[option] = self.sums.get(option, 0.0) + value

    def best(self, options: Sequence[str]) -> str:
        """The option worth most on average (the earliest of equals)."""
        return max(options, key=lambda o: (round(self.sums.get(o, -1e9), 9),
                                           -options.index(o)))


def _weigh(k: Knowledge, rng: random.Random, budget: Budget,
           worth: Callable[[Sample], dict[str, float]]) -> Tally:
    dealer = Dealer(k)
    tally = Tally()
    for sample in budget.deals(dealer.deal, rng, dealer.hidden):
        try:
            tally.add(worth(sample))
        except TooLong:
            continue
    return tally


# -- the auction ------------------------------------------------------------------------

def bid(k: Knowledge, rng: random.Random, budget: Budget) -> str:
    bids = [a for a in k.legal if a != "bid:pass"]
    if not bids:
        return "bid:pass"
    w = Worth(k)
    strains = _strains(k.hand)
    miser = "bid:miser" in k.legal and miser_dangers(k.hand) <= MISER_LOOK
    high = k.view["high_bid"]

    def rank(action: str) -> int:
        call = action.partition(":")[2]
        return bid_rank(high if call == "here" else call)

    reachable = max(bid_rank(c) for c in _contracts(0, strains))
    trick_bids = [a for a in bids if a != "bid:miser" and rank(a) <= reachable]

    def worth(sample: Sample) -> dict[str, float]:
        cards = k.hand + sample.out
        value: dict[str, float] = {"bid:pass": 0.0}
        best: dict[str, float] = {}
        for strain in strains:
            total = _declarer_tricks(k, sample, _keep(cards, strain), strain)
            for c in _contracts(0, [strain]):
                best[c] = _as_declarer(k, w, c, total, sample.out)
        for action in trick_bids:
            value[action] = max(v for c, v in best.items() if bid_rank(c) >= rank(action))
        if miser:
            kept = [c for c in cards if c not in _discards(cards, MISER, 1)[0]]
            total = _declarer_tricks(k, sample, kept, MISER, MISER_CAP)
            value["bid:miser"] = _as_declarer(k, w, MISER, total, sample.out)
        return value

    options = ["bid:pass", *trick_bids, *(["bid:miser"] if miser else [])]
    return _weigh(k, rng, budget, worth).best(options)


# -- the declarer: discard and contract -------------------------------------------------------

def discard(k: Knowledge, rng: random.Random, budget: Budget) -> str:
    won = k.view["high_bid"]
    w = Worth(k)
    if won == MISER:
        candidates = {_name(p, MISER): (p, MISER) for p in _discards(k.hand, MISER, MISER_DISCARDS)}
    else:
        candidates = {}
        for strain in _strains(k.hand):
            for pair in _discards(k.hand, strain, DISCARDS_PER_STRAIN):
                candidates[_name(pair, strain)] = (pair, strain)

    def worth(sample: Sample) -> dict[str, float]:
        out = {}
        for name, (pair, strain) in candidates.items():
            kept = [c for c in k.hand if c not in pair]
            if strain == MISER:
                total = _declarer_tricks(k, sample, kept, MISER, MISER_CAP)
                out[name] = _as_declarer(k, w, MISER, total, k.talon)
                continue
            total = _declarer_tricks(k, sample, kept, strain)
            out[name] = max(_as_declarer(k, w, c, total, k.talon)
                            for c in _contracts(bid_rank(won), [strain]))
        return out

    pair, _ = candidates[_weigh(k, rng, budget, worth).best(list(candidates))]
    return k.discard_action(pair)


def _name(pair: tuple[Card, Card], strain: Strain | str) -> str:
    return f"{pair[0]},{pair[1]}:{strain}"


def contract(k: Knowledge, rng: random.Random, budget: Budget) -> str:
    if k.legal == ["contract:miser"]:
        return "contract:miser"
    w = Worth(k)
    won = bid_rank(k.view["high_bid"])
    strains = _strains(k.hand, k.discard)
    options = [f"contract:{c}" for c in _contracts(won, strains)]

    def worth(sample: Sample) -> dict[str, float]:
        out = {}
        for strain in strains:
            total = _declarer_tricks(k, sample, k.hand, strain)
            for c in _contracts(won, [strain]):
                out[f"contract:{c}"] = _as_declarer(k, w, c, total, k.talon)
        return out

    tally = _weigh(k, rng, budget, worth)
    if "contract:walkaway" in k.legal:
        tally.sums["contract:walkaway"] = tally.count * float(
            w.walkaway(k.seat, k.view["high_bid"])[k.seat])
        options.append("contract:walkaway")
    return tally.best(options)


# -- the defenders: whist or pass ---------------------------------------------------------

def whist(k: Knowledge, rng: random.Random, budget: Budget) -> str:
    if len(k.legal) == 1:
        return k.legal[0]
    assert k.declarer is not None and k.contract is not None
    declarer, contract_ = k.declarer, k.contract
    partner = next(s for s in k.active if s not in (declarer, k.seat))
    w = Worth(k)
    strain = trump(contract_)
    heard = [(s, c) for s, c in k.view["whists"]]

    def worth(sample: Sample) -> dict[str, float]:
        solved = _solved(tricks(full_layout(k, sample.hands, strain),
                                Goal.declarer(k.active.index(declarer)), limit=SEARCH_LIMIT))
        out = dict.fromkeys(k.legal, 0.0)
        for total, share in ((solved, 1 - DEFENCE_DISCOUNT),
                             (min(10, solved + 1), DEFENCE_DISCOUNT)):
            split = _defence_split(k, sample, partner, strain, 10 - total)
            split[declarer] = total
            for a in k.legal:
                out[a] += share * _whist_outcome(
                    k, w, sample, split, [*heard, (k.seat, a.partition(":")[2])], partner)
        return out

    return _weigh(k, rng, budget, worth).best(list(k.legal))


def _whist_outcome(k: Knowledge, w: Worth, sample: Sample, split: list[int],
                   calls: list[tuple[int, str]], partner: int) -> float:
    """The robot's balance after ``calls`` and the calls still to come: the partner's as
    the heuristic would make them on his sampled hand, the robot's own the best."""
    contract_ = k.contract
    assert contract_ is not None and k.declarer is not None
    state = Whisting(*_defenders(k, k.declarer), level(contract_))
    for seat, call in calls:
        state.apply(seat, call)
    if state.turn is None:
        return float(w.contract(k.declarer, k.view["high_bid"], contract_, split,
                                calls)[k.seat])
    if state.turn == partner:
        said = [c for _, c in calls]
        call = whist_call(sample.hands[partner], contract_, said,
                          [f"whist:{c}" for c in state.legal(partner)])
        return _whist_outcome(k, w, sample, split,
                              [*calls, (partner, call.partition(":")[2])], partner)
    return max(_whist_outcome(k, w, sample, split, [*calls, (k.seat, c)], partner)
               for c in state.legal(k.seat))


def _defence_split(k: Knowledge, sample: Sample, partner: int, strain: Strain,
                   side: int) -> list[int]:
    """The defenders' tricks shared as their hands' defensive strength suggests."""
    mine = defence_tricks(sample.hands[k.seat], strain)
    his = defence_tricks(sample.hands[partner], strain)
    share = round(side * mine / (mine + his)) if mine + his else (side + 1) // 2
    out = [0] * k.rules.players
    out[k.seat], out[partner] = share, side - share
    return out
