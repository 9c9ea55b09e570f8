"""One deal's entries (spec section 10): mountain, whists, and pool credits.

Pool credits are only collected here: section 11 (``pool_help``) turns each into
pool, help whists or a write-off once the sheet's pools are known.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import ACE, KING, QUEEN, parse_cards
from engine.preferans.bids import COST, MISER_COST, OBLIGATION
from engine.preferans.result import DealResult, empty_entries
from engine.preferans.rules import Rules


@dataclass(frozen=True)
class Note:
    """Why one number was written: ``reason`` (``contract``, ``down``, ``tricks``,
    ``halfwhist``, ``consolation``, ``failed_whist``, ``talon``, ``miser``, ``walkaway``,
    ``raspasy``, ``zero_tricks``, ``help``, ``written_off``), ``where`` it went (``pool``,
    ``mountain``, ``whists``), for ``seat`` (the writer of whists, on ``target``), how much,
    and the ``count`` it was reckoned from (tricks short, tricks, quick tricks) if any."""

    reason: str
    where: str
    seat: int
    amount: int
    target: int | None = None
    count: int | None = None


class DealEntries:
    """A deal's entries as they are written: ``entries`` as records.md, plus pool credits
    (their reasons with them) and a note of why each number was written."""

    def __init__(self, players: int) -> None:
        self.entries = empty_entries(players)
        # (seat, pool points, reason) in section 11's order
        self.credits: list[tuple[int, int, str]] = []
        self.notes: list[Note] = []

    def credit(self, seat: int, points: int, reason: str) -> None:
        self.credits.append((seat, points, reason))

    def charge(self, seat: int, points: int, reason: str, count: int | None = None) -> None:
        self.entries["mountain"][seat] += points
        self.notes.append(Note(reason, "mountain", seat, points, count=count))

    def write(self, writer: int, target: int, whists: int, reason: str,
              count: int | None = None) -> None:
        if not whists:
            return
        self.entries["whists"][writer][target] += whists
        self.notes.append(Note(reason, "whists", writer, whists, target, count))


def deal_entries(rules: Rules, result: DealResult, raspasy_cost: int) -> DealEntries:
    """Everything one finished deal writes, before help; ``raspasy_cost`` is ``r`` (10.11)."""
    e = DealEntries(result.players)
    if result.kind == "raspasy":
        if rules.raspasy_mode == "whists":
            _raspasy_whists(rules, result, e)
        else:
            _raspasy_mountain(rules, result, raspasy_cost, e)
    elif result.kind == "miser":
        _miser(rules, result, e)
    elif result.kind == "walkaway":
        _walkaway(rules, result, e)
    elif result.kind == "game":
        _game(rules, result, e)
        _talon_premium(rules, result, e)
    else:
        raise ValueError(f"unknown deal kind {result.kind!r}")
    return e


def made(result: DealResult) -> bool:
    """A trick contract that stands: unplayed (both passed, half-whist) or enough tricks."""
    return not result.played or _undertricks(result) == 0


def talon_units(talon: tuple[str, str]) -> int:
    """Quick tricks ``q`` in the talon (10.9): ace or marriage 1, ace-king 2, two aces 3."""
    a, b = parse_cards(talon)
    ranks = {a.rank, b.rank}
    same_suit = a.suit == b.suit
    if a.rank == b.rank == ACE:
        return 3
    if same_suit and ranks == {ACE, KING}:
        return 2
    return 1 if ACE in ranks or (same_suit and ranks == {KING, QUEEN}) else 0


def _declarer(result: DealResult) -> int:
    if result.declarer is None:
        raise ValueError(f"a {result.kind} deal needs a declarer")
    return result.declarer


def _level(result: DealResult) -> int:
    if result.level is None:
        raise ValueError(f"a {result.kind} deal needs a trick contract")
    return result.level


def _undertricks(result: DealResult) -> int:
    return max(0, _level(result) - result.tricks[_declarer(result)])


def _opponents(result: DealResult) -> tuple[int, ...]:
    """The two active players other than the declarer."""
    return tuple(s for s in result.active if s != result.declarer)


def _consolation(rules: Rules, level: int) -> int:
    """``s(L)``: whists per undertrick for each recipient (10.3)."""
    return 10 if rules.consolation_rate == "flat10" else rules.k * COST[level]


def _console(rules: Rules, result: DealResult, writers: tuple[int, ...], whists: int,
             e: DealEntries, short: int) -> None:
    """``writers``, and the 4-player dealer if ``consolation_to_dealer``, write on the declarer
    (``short``: the tricks the declarer lacked)."""
    if result.players == 4 and rules.consolation_to_dealer:
        writers = (*writers, result.dealer)
    for writer in writers:
        e.write(writer, _declarer(result), whists, "consolation", short)


def _game(rules: Rules, result: DealResult, e: DealEntries) -> None:
    """A trick contract, played or not, the checked ten included (10.1-10.5, 10.7)."""
    d, level = _declarer(result), _level(result)
    cost, k = COST[level], rules.k
    if not result.played:  # both defenders passed, or a half-whist stood (10.5)
        e.credit(d, cost, "contract")
        if result.halfwhister is not None:
            e.write(result.halfwhister, d, k * cost * OBLIGATION[level] // 2, "halfwhist")
        return
    under = _undertricks(result)
    if under:
        e.charge(d, k * cost * under, "down", under)
    else:
        e.credit(d, cost, "contract")
    if result.checked:
        if under:
            _console(rules, result, _opponents(result), _consolation(rules, level) * under, e,
                     under)
        return
    _trick_whists(rules, result, under > 0, e)
    if under:
        passers = result.passers if rules.consolation_to_passer else ()
        writers = (*result.whisters, *passers)
        _console(rules, result, writers, _consolation(rules, level) * under, e, under)
    else:
        _failed_whist(rules, result, e)


def _trick_whists(rules: Rules, result: DealResult, failed: bool, e: DealEntries) -> None:
    """10.2: two whisters write their own tricks; a lone whister the side's (or half)."""
    d, w = _declarer(result), rules.k * COST[_level(result)]
    if len(result.whisters) == 2:
        for x in result.whisters:
            e.write(x, d, w * result.tricks[x], "tricks", result.tricks[x])
        return
    if not result.whisters:
        return
    taken = sum(result.tricks[x] for x in result.defenders)
    side = w * taken
    whister = result.whisters[0]
    if failed and rules.whist_style == "gentleman" and not result.returned and result.passers:
        e.write(whister, d, side // 2, "tricks", taken)
        e.write(result.passers[0], d, side // 2, "tricks", taken)
    else:
        e.write(whister, d, side, "tricks", taken)


def _failed_whist(rules: Rules, result: DealResult, e: DealEntries) -> None:
    """10.4: the declarer made it and the whisting side took fewer than ``O(L)``."""
    level = _level(result)
    cost = COST[level]
    f = cost if rules.failed_whist_rate == "cost" else cost // 2
    need = OBLIGATION[level]
    side = sum(result.tricks[x] for x in result.defenders)
    if side >= need or not result.whisters:
        return
    if len(result.whisters) == 1:
        e.charge(result.whisters[0], f * (need - side), "failed_whist", need - side)
        return
    first, second = result.first_defender, result.second_defender
    assert first is not None and second is not None
    if level >= 8:
        e.charge(second, f, "failed_whist", need - side)
    elif rules.both_whist_shortfall == "own_half":
        for x in (first, second):
            short = max(0, need // 2 - result.tricks[x])
            if short:
                e.charge(x, f * short, "failed_whist", short)
    else:
        fewer = first if result.tricks[first] < result.tricks[second] else second
        e.charge(fewer, f * (need - side), "failed_whist", need - side)


def _talon_premium(rules: Rules, result: DealResult, e: DealEntries) -> None:
    """10.9: ``q·w(L)``, all by the 4-player dealer, otherwise half by each opponent."""
    if not rules.talon_premium:
        return
    d = _declarer(result)
    units = talon_units(result.talon)
    whists = units * rules.k * COST[_level(result)]
    if result.players == 4:
        e.write(result.dealer, d, whists, "talon", units)
    else:
        for x in _opponents(result):
            e.write(x, d, whists // 2, "talon", units)


def _miser(rules: Rules, result: DealResult, e: DealEntries) -> None:
    """10.6: no trick makes it; each trick costs ``k·10`` (and consolation as an option)."""
    d = _declarer(result)
    taken = result.tricks[d]
    if not taken:
        e.credit(d, MISER_COST, "miser")
        return
    e.charge(d, rules.k * MISER_COST * taken, "miser", taken)
    if rules.miser_consolation:
        _console(rules, result, _opponents(result), rules.k * MISER_COST * taken, e, taken)


def _walkaway(rules: Rules, result: DealResult, e: DealEntries) -> None:
    """10.8: down three at the winning bid's level, consolation as the option says."""
    level = _level(result)
    e.charge(_declarer(result), 3 * rules.k * COST[level], "walkaway", 3)
    if rules.walkaway == "with_consolation":
        _console(rules, result, _opponents(result), 3 * _consolation(rules, level), e, 3)


def _zero_reward(rules: Rules, seats: list[int], unit: int, e: DealEntries) -> None:
    """The zero-trick reward of ``unit``: pool points, or ``k·unit`` off the mountain."""
    for x in seats:
        if rules.zero_trick_reward == "pool":
            e.credit(x, unit, "zero_tricks")
        elif rules.zero_trick_reward == "writeoff":
            e.charge(x, -rules.k * unit, "zero_tricks")


def _raspasy_mountain(rules: Rules, result: DealResult, r: int, e: DealEntries) -> None:
    """10.10, Sochi and Leningrad: amnesty over the participants, then the zero reward."""
    seats = list(result.active)
    if result.players == 4 and rules.raspasy_talon == "lead_two":
        seats.append(result.dealer)  # his talon cards took tricks
    least = min(result.tricks[x] for x in seats)
    for x in seats:
        if result.tricks[x] > least:
            e.charge(x, r * (result.tricks[x] - least), "raspasy", result.tricks[x] - least)
    _zero_reward(rules, [x for x in result.active if result.tricks[x] == 0], r, e)


def _raspasy_whists(rules: Rules, result: DealResult, e: DealEntries) -> None:
    """10.10, Rostov: the fewest tricks write ``rate`` per trick on the others."""
    tricks = {x: result.tricks[x] for x in result.active}
    least = min(tricks.values())
    winners = [x for x in result.active if tricks[x] == least]
    losers = [x for x in result.active if tricks[x] != least]
    rate = rules.rostov_raspasy_rate
    for x in winners:
        for y in losers:
            e.write(x, y, rate * tricks[y] // len(winners), "raspasy", tricks[y])
    zeros = [x for x in result.active if tricks[x] == 0]
    if result.players == 4:
        zeros.append(result.dealer)
    _zero_reward(rules, zeros, 1, e)
