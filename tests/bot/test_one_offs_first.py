"""One-off messages never wait behind table edits (issue 33.7), under Telegram's real limits:
while players press as fast as the fake allows, so that the group's table message is edited
at the group's budget with an edit waiting, a command's reply is the group's next call (at
most the one call already on its way goes before it); the seconds it takes are printed
(``-s``) for the notes."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from tests.bot.harness import act, open_table, running_bot
from tests.bot.tabletop import only_table, seat_users
from tests.bot.test_budgets import _played, preferans_deal
from tests.fakebot import FakeTelegram
from tests.fakebot.flood import EDITS, SENDS

COMMANDS = ("/history", "/score", "/rules", "/help")
EVERY = 8.0  # seconds between two commands: a chatty group's (the replies of one a second
# would spend the group's minute by themselves)


async def test_a_reply_goes_before_the_waiting_table_edits(tg: FakeTelegram,
                                                           tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Busy", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        lobby = await open_table(tg, group, users)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        table, seats = only_table(hub), seat_users(hub, users)
        outbox = hub.presenter.outbox
        # (calls before, the moment, command, a table edit was waiting)
        asked: list[tuple[int, float, str, bool]] = []
        presses = 0
        for number in range(2):
            chooser = preferans_deal(table, number)
            scored = len(table.match.outputs)
            while len(table.match.outputs) == scored or not _played(table.match.outputs[-1]):
                scored = len(table.match.outputs)
                state = table.match.state
                await act(tg, seats[state.controller(state.to_act[0])], chooser(state))
                presses += 1
                if time.time() - (asked[-1][1] if asked else 0) >= EVERY:
                    command = COMMANDS[len(asked) % len(COMMANDS)]
                    waiting = outbox.holds(group.id)
                    asked.append((len(tg.calls), time.time(), command, waiting))
                    tg.send(users[len(asked) % 3], group, command)
        await tg.settled()
        assert sum(waiting for *_, waiting in asked) >= 3, asked  # edits were waiting
        delays = []
        for since, sent, command, _ in asked:
            calls = [c for c in tg.calls[since:]
                     if c.chat_id == group.id and c.method in SENDS | EDITS]
            reply = next(i for i, c in enumerate(calls) if c.method == "sendMessage"
                         and not str(c.params.get("text", "")).startswith("<b>Deal"))
            edits = [c for c in calls[:reply] if c.method in EDITS]
            assert len(edits) <= 1, (command, [c.method for c in calls[:reply + 1]])
            delays.append(calls[reply].time - sent)
        assert not [c for c in tg.calls if c.status == 429]
        assert tg.peak_rate(group, period=60) <= 20
        print(f"\n{len(asked)} commands during {presses} presses: reply after median "
              f"{statistics.median(delays):.2f} s, max {max(delays):.2f} s; "
              f"{sum(w for *_, w in asked)} with a table edit waiting")
