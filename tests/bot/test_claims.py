"""Claims at the bot (issue 34), by buttons on the fake Bot API: at a table that allows
them the declarer presses "✋ Claim the rest", everyone sees his hand, a defender refuses
and play goes on; later he concedes a trick, both defenders accept with one press each,
and the deal ends as claimed. With proved claims on, conceding every trick left stands
at once (the solver proves it), nobody asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import act, open_table, running_bot, toggle_conventions
from tests.bot.test_preferans_game import choose
from tests.fakebot import FakeTelegram, User

# Telegram's windows four times faster on both sides (tests/bot/conftest.py): the group
# shows a claim because it is a beat of the table (bot/telegram/rhythm.py), not because an
# edit happened to be waiting.
pytestmark = pytest.mark.telegram_clock(4)

async def _table(tg: FakeTelegram, conventions: tuple[str, ...]) -> tuple[list[User], object]:
    """A started Preferans game whose lobby turned on these conventions."""
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    await open_table(tg, group, users)
    await toggle_conventions(tg, group, users[0], conventions)
    await tg.press(users[0], tg.last_message(group), text="▶ Start")
    await tg.idle()
    return users, group


async def _to_declarers_turn(tg: FakeTelegram, hub, users: list[User], intent: str,
                             tricks_done: int = 0):
    """Play the scripted deal until the declarer is to play after ``tricks_done`` tricks."""
    table = next(iter(hub.services.tables.values()))
    state = table.match.state
    opener = state.to_act[0]
    while not (state.phase == "play" and state.tricks_done >= tricks_done
               and state.controller(state.to_act[0]) == state.declarer):
        seat = state.to_act[0]
        await act(tg, users[state.controller(seat)], choose(state, intent, opener))
        state = table.match.state
    return table, state


def _shown(tg: FakeTelegram, group, text: str) -> bool:
    """Some message of the group says it (the table's message is edited in place)."""
    return any(text in m.text for m in tg.messages(group))


async def _press(tg: FakeTelegram, user: User, text: str) -> None:
    answer = await tg.press(user, tg.last_message(user), text=text)
    assert not answer.show_alert, answer.text
    await tg.idle()


async def test_a_claim_refused_then_a_concession_accepted(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        users, group = await _table(tg, ("Claims",))
        table, state = await _to_declarers_turn(tg, hub, users, "two_whists")
        declarer = users[state.declarer]
        defenders = [users[s] for s in state.active if s != state.declarer]
        await _press(tg, declarer, "✋ Claim the rest (10)")
        await tg.settled(group)
        assert _shown(tg, group, "claims 10 of the 10 tricks left")
        hand = table.match.state.hands[state.declarer]
        assert all(f"{c.rank if c.rank <= 10 else 'JQKA'[c.rank - 11]}" in
                   tg.last_message(defenders[0]).text for c in hand)
        await _press(tg, defenders[1], "❌ Refuse")
        await tg.settled(group)
        assert table.match.state.phase == "play"
        assert _shown(tg, group, "claim of 10 was refused: play goes on.")
        table, state = await _to_declarers_turn(tg, hub, users, "two_whists", tricks_done=1)
        left, before, mover = 10 - state.tricks_done, list(state.tricks), state.to_act[0]
        await _press(tg, declarer, "🏳 Concede 1")
        for defender in defenders:
            await _press(tg, defender, "✅ Accept")
        await tg.settled(group)
        output = table.match.outputs[-1]
        assert output["tricks"][state.declarer] == before[state.declarer] + left - 1
        assert sum(output["tricks"]) == 10
        record = table.match.record()
        actions = record["deals"][0]["actions"]
        assert {"seat": mover, "claim": left - 1} in actions
        assert sum(1 for a in actions if a.get("answer") == "accept") == 2


async def test_a_proved_claim_stands_at_once(tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        users, group = await _table(tg, ("Claims", "A claim the solver proves stands"))
        _, state = await _to_declarers_turn(tg, hub, users, "two_whists", tricks_done=1)
        declarer, before = state.declarer, list(state.tricks)
        await _press(tg, users[declarer], f"🏳 Concede {10 - state.tricks_done}")
        await tg.settled(group)
        assert state.finished and state.claims[-1]["outcome"] == "proved"  # nobody asked
        assert state.tricks[declarer] == before[declarer] and sum(state.tricks) == 10
        assert _shown(tg, group, "Deal 1")  # its result
