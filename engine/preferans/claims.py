"""Claims (issue 34, ``docs/records-claims.md``): in the trick play of a trick contract the
declarer, at his turn, or in open play the lone whister, at his or the passer's turn, may
claim that his side takes ``n`` of the tricks still to play (the trick in progress
included): all of them, or fewer (conceding the others). His hand is shown to everyone;
each opponent who plays his own cards answers, accept or refuse. When all accept the
deal ends with the tricks as claimed; one refusal and play goes on, the claim recorded
as refused. One claim a trick. With ``auto_claims`` a claim the solver proves is
accepted at once: for every lie of the cards the claimer cannot see, best play by all
(every hand open) gives his side ``n`` tricks.

A claim's action is the seat to play's, as for a card (``claim:n``); the claimer is its
controller. Answers are ``answer:accept`` and ``answer:refuse``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from engine.base import Event, IllegalAction, MalformedAction
from engine.preferans.bids import MISER
from engine.preferans.dds import Goal, tricks
from engine.preferans.position import layout

# The deal (``engine.preferans.state.State``, which imports this module and calls these
# functions with itself).
State = Any

CLAIM = "claim"  # the phase while the opponents answer a claim
ANSWERS = ("accept", "refuse")
LIES_LIMIT = 3000  # a claim with more lies to try is not proved (the opponents answer)


@dataclass
class Claim:
    seat: int  # the claimer
    tricks: int  # his side's tricks of those still to play
    waiting: list[int]  # the opponents still to answer


def remaining(state: State) -> int:
    return 10 - state.tricks_done


def claimer(state: State) -> int | None:
    """Who may claim now (None: nobody)."""
    if (not state.rules.claims or state.declarer is None or state.contract == MISER
            or not state.order or any(c["trick"] == state.tricks_done + 1 for c in state.claims)):
        return None
    who = state.controller(state.order[0])
    if who == state.declarer or (state.open and state.whisting is not None
                                 and who in state.whisting.whisters):
        return who
    return None


def offers(state: State, seat: int) -> list[str]:
    """The claims listed among ``seat``'s legal actions (the seat to play)."""
    if claimer(state) is None or seat != state.order[0]:
        return []
    return [f"claim:{n}" for n in range(remaining(state) + 1)]


def check(state: State, seat: int, value: str) -> int:
    if not value.isdigit():
        raise MalformedAction("bad_claim", f"a claim is a number of tricks, not '{value}'")
    n = int(value)
    if claimer(state) is None:
        raise IllegalAction("no_claim", "you may not claim now")
    if n > remaining(state):
        raise IllegalAction("claim_too_many", f"only {remaining(state)} tricks are left",
                            left=remaining(state))
    return n


def _opponents(state: State, seat: int) -> list[int]:
    """Who answers ``seat``'s claim: the other side's players who play their own cards."""
    if seat != state.declarer:
        assert state.declarer is not None
        return [state.declarer]
    return sorted({state.controller(s) for s in state.active if s != state.declarer})


def apply(state: State, seat: int, n: int) -> list[Event]:
    who = claimer(state)
    assert who is not None
    state.claim = Claim(who, n, _opponents(state, who))
    state.claims.append({"seat": who, "tricks": n, "trick": state.tricks_done + 1,
                         "outcome": "open"})
    events = [Event("claim", who, {"tricks": n, "hand": [str(c) for c in state.hands[who]]})]
    if state.rules.auto_claims and proved(state, who, n):
        return events + _accepted(state, proved=True)
    state.phase = CLAIM
    return events


def check_answer(state: State, seat: int, value: str) -> str:
    if value not in ANSWERS:
        raise MalformedAction("bad_answer", "answer accept or refuse")
    return value


def answer(state: State, seat: int, value: str) -> list[Event]:
    claim = state.claim
    assert claim is not None
    if value == "refuse":
        state.claims[-1]["outcome"] = "refused"
        state.claim = None
        state.phase = "play"
        return [Event("claim_refused", seat, {"claimer": claim.seat, "tricks": claim.tricks})]
    claim.waiting.remove(seat)
    events = [Event("claim_answer", seat, {"answer": value})]
    return events + (_accepted(state, proved=False) if not claim.waiting else [])


def _accepted(state: State, *, proved: bool) -> list[Event]:
    """The deal ends with the claimed tricks: the claimer's side gets its ``n``, the other
    side the rest; the defence's tricks go to the whisters (without whisters, to the
    defenders) in turn from the first."""
    record = state.claims[-1]
    record["outcome"] = "proved" if proved else "accepted"
    n, left = record["tricks"], remaining(state)
    declarer = state.declarer
    assert declarer is not None
    own = n if record["seat"] == declarer else left - n
    state.tricks[declarer] += own
    w = state.whisting
    i = state.active.index(declarer)
    takers = list(w.whisters) if w is not None and w.whisters else [
        state.active[(i + 1) % 3], state.active[(i + 2) % 3]]
    for k in range(left - own):
        state.tricks[takers[k % len(takers)]] += 1
    state.tricks_done = 10
    state.claim = None
    state.order = []
    state.phase = "done"
    return [Event("claim_accepted", record["seat"], {"tricks": n, "proved": proved}),
            state.deal_over("game")]


def view(state: State) -> dict[str, Any] | None:
    """The claim being answered: the claimer's hand is shown to everyone."""
    claim = state.claim
    if claim is None:
        return None
    return {"seat": claim.seat, "tricks": claim.tricks, "waiting": list(claim.waiting),
            "hand": [str(c) for c in state.hands[claim.seat]]}


def proved(state: State, seat: int, n: int) -> bool:
    """Does ``seat``'s side take ``n`` of the remaining tricks with best play, whatever
    the lie of the cards ``seat`` cannot see? (False with more than LIES_LIMIT lies.)"""
    declarer = state.declarer
    assert declarer is not None
    if n == 0:  # conceding every trick left needs no proof
        return True
    hidden = [s for s in state.active
              if s != seat and not (state.exposed and s != declarer)]
    pool = [c for s in hidden for c in state.hands[s]]
    if seat != declarer:
        pool += state.discarded
    sizes = [len(state.hands[s]) for s in hidden]
    lies, free = 1, len(pool)
    for size in sizes:
        lies, free = lies * comb(free, size), free - size
    if lies > LIES_LIMIT:
        return False
    goal = Goal.declarer(state.active.index(declarer))
    left = remaining(state)
    for hands in _lies(pool, hidden, sizes):
        found = tricks(layout(state, hands), goal, cap=left)
        assert found is not None
        ours = found if seat == declarer else left - found
        if ours < n:
            return False
    return True


def _lies(pool: list, seats: list[int], sizes: list[int]):
    """Every way to deal ``pool``'s cards to ``seats`` (``sizes`` each; the rest unused)."""
    if not seats:
        yield {}
        return
    for hand in combinations(pool, sizes[0]):
        rest = [c for c in pool if c not in hand]
        for others in _lies(rest, seats[1:], sizes[1:]):
            yield {seats[0]: list(hand), **others}
