"""Engine refusals: every code the engines raise has a template, the template asks only for
values the engine gives, and real refusals read in Russian (English: the engine's own)."""

from __future__ import annotations

import ast
import copy
import random
import re
from collections.abc import Iterator
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.screens.refusals import ENGLISH, choices, fields, reason
from bot.screens.refusals import engine_templates as templates
from bot.ui.i18n import translator
from engine.base import ActionError, IllegalAction
from engine.games import GAMES
from engine.joker.pack import joker_deck
from engine.match import Match
from engine.preferans.pack import preferans_deck
from engine.seep.pack import seep_deck

ENGINE = Path(__file__).parent.parent.parent / "engine"
ERRORS = {"ActionError", "NotYourTurn", "WrongPhase", "MalformedAction", "IllegalAction"}
# A code passed on from another refusal (the wrapped one is raised, and checked, elsewhere).
PASSED_ON = {"exc.code", "why.code"}
SEEP_STEP_CODE = "f'bad_{step.name}'"  # engine/seep/manual.py: one code per entry step
RENAMED = {"seat": "name"}  # params the bot shows otherwise: a seat as the player's name


def calls(root: Path, names: set[str]) -> Iterator[tuple[Path, ast.Call]]:
    """Every call with arguments in the Python files under ``root`` of a function or method
    named one of ``names``."""
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)) in names:
                yield path, node


def raised() -> Iterator[tuple[str, str, set[str]]]:
    """(code expression, where, param names) of every refusal the engines construct."""
    for path, node in calls(ENGINE, ERRORS):
        if path.name != "base.py":
            params = {RENAMED.get(k.arg, k.arg) for k in node.keywords if k.arg}
            yield ast.unparse(node.args[0]), f"{path.name}:{node.lineno}", params


def seep_steps() -> set[str]:
    text = (ENGINE / "seep" / "manual.py").read_text(encoding="utf-8")
    found = set(re.findall(r'Step\("(\w+)"', text))
    team = re.search(r"TEAM_STEPS = \(([^)]*)\)", text)
    assert team is not None
    return found | set(re.findall(r'"(\w+)"', team.group(1)))


def test_every_code_the_engines_raise_has_a_template() -> None:
    sites = list(raised())
    assert len(sites) > 100
    codes = set()
    for code, where, _ in sites:
        if code == SEEP_STEP_CODE:
            codes |= {f"bad_{step}" for step in seep_steps()}
        elif code not in PASSED_ON:
            assert code.startswith("'"), f"{where}: a code that is not a literal: {code}"
            codes.add(ast.literal_eval(code))
    assert codes - ENGLISH.keys() == set()
    assert ENGLISH.keys() - codes == set()  # no template for a code nobody raises


def test_every_raise_gives_the_values_of_one_of_its_templates() -> None:
    for code, where, params in raised():
        if code.startswith("'"):
            alternatives = choices(ENGLISH[ast.literal_eval(code)])
            assert any(fields(t) <= params for t in alternatives), (where, alternatives, params)


def test_russian_templates_keep_the_fields() -> None:
    ru = templates(translator("ru"))
    for code, template in ENGLISH.items():
        for english, russian in zip(choices(template), choices(ru[code]), strict=True):
            assert russian != english, code
            assert fields(russian) == fields(english), code


def test_reason_in_russian_english_and_fallbacks() -> None:
    ru, en = translator("ru"), translator("en")
    error = IllegalAction("must_follow", "you must follow ♥", suit="H")
    assert reason(error, ru) == "Нужно ходить в масть: сыграйте ♥."
    assert reason(error, en) == "you must follow ♥"  # English: the engine's own words
    card = IllegalAction("not_in_hand", "you do not hold 10♦", card="10D")
    assert reason(card, ru) == "У вас нет карты 10♦."
    unknown = IllegalAction("brand_new", "a refusal from tomorrow's engine")
    assert reason(unknown, ru) == "a refusal from tomorrow's engine"
    named = IllegalAction("sits_out", "Ann sits out this deal and takes no tricks", seat=1)
    assert reason(named, ru, ["Боб", "Ann", "Cid"]) == \
        "Ann в этой раздаче не играет и взяток не берёт."
    assert reason(named, ru) == named.message  # no names given: nothing to fill {name} with
    text = IllegalAction("bad_text", "no player 'Zed' (at 'Zed', character 4)", position=3,
                         word="Zed")
    assert reason(text, ru) == "Запись не прочитать у «Zed» (символ 4)."
    later = IllegalAction("house_size", "deal 3: a house needs at least two cards", deal=3)
    assert reason(later, ru) == "Раздача 3: в доме должно быть не меньше двух карт."


CARD_OR_NUMBER = re.compile(r"\b(?:10|[2-9JQKA])[SCDH]\b|\bJK\b|\b\d+\b")
DECKS = {"preferans": preferans_deck(), "joker": joker_deck(), "seep": seep_deck()}


def mutations(legal: list[str], deck: list[str], rng: random.Random) -> Iterator[str]:
    """Actions like the legal ones with a card or a number swapped: mostly refused."""
    for _ in range(12):
        action = rng.choice(legal)
        spots = list(CARD_OR_NUMBER.finditer(action))
        if not spots:
            continue
        spot = rng.choice(spots)
        other = rng.choice(deck) if spot.group()[-1] in "SCDHK" else str(rng.randrange(16))
        yield action[:spot.start()] + other + action[spot.end():]


def refusals(game: str, seed: int) -> Iterator[ActionError]:
    """Real refusals: a random game of ``game``, and at each step actions that are not legal
    for the seat to act (a card or number changed, a wrong seat, garbage)."""
    spec = GAMES[game]
    rules = spec.rules.from_dict({})
    names = ["A", "B", "C", "D"][:rules.players]
    deck = [str(c) for c in DECKS[game]]
    match = Match(spec, rules, names, 0)
    rng = random.Random(seed)
    for _ in range(80):
        if match.over:
            return
        if not match.in_deal:
            match.start_deal(seed=rng.randrange(2**32))
            continue  # a Seep redeal is over as soon as it is dealt
        state = match.state
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        tries = [(seat, a) for a in mutations(legal, deck, rng) if a not in legal]
        tries += [((seat + 1) % len(names), legal[0]), (seat, "nonsense")]
        for who, action in tries:
            try:
                copy.deepcopy(state).apply(who, action)
            except ActionError as exc:
                yield exc  # (another spelling of a legal action is accepted: skipped)
        match.apply(seat, rng.choice(legal))


@settings(max_examples=6, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**16))
def test_real_refusals_read_in_russian(game: str, seed: int) -> None:
    ru = translator("ru")
    for error in refusals(game, seed):
        assert error.code in ENGLISH, (error.code, error.message)
        text = reason(error, ru, ["A", "B", "C", "D"])
        assert text != error.message, (error.code, error.params, error.message)
        assert "{" not in text and re.search("[а-яА-Я]", text), text


def test_the_alternative_without_a_value_is_used_where_the_value_is_missing() -> None:
    ru = translator("ru")
    seep = IllegalAction("bid_range", "a bid is 9 to 13, not 8", bid=8)
    joker = IllegalAction("bid_range", "a bid is 0 to 3 tricks in this deal", max=3)
    assert reason(seep, ru) == "Заказ — от 9 до 13, не 8."
    assert reason(joker, ru) == "В этой раздаче заказ — от 0 до 3 взяток."
    empty = IllegalAction("bad_text", "the deal is empty: for example '7H Ann made'")
    assert reason(empty, ru) == "Запись не прочитать."
