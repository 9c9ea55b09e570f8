"""Names people type at a keep-score table: what no one can see or tell apart is refused or
cleaned, a long reply fits in a message, and /undo with nothing entered is answered."""

from __future__ import annotations

from pathlib import Path

from bot.service.names import clean, likeness
from tests.bot.harness import running_bot
from tests.bot.scorekeeping import keeping_lobby, open_keeping
from tests.fakebot import FakeTelegram

MESSAGE_LIMIT = 4096


def test_names_are_cleaned_and_compared_as_seen() -> None:
    assert clean("Mi\u200bla") == "Mila"
    assert clean("\u202eBob\u202c") == "Bob"
    assert clean("  Ａｎｎ \t Lee\n") == "Ann Lee"  # full-width letters, any spaces
    assert clean("\u200b\u200d\u2066\u3164") == ""
    assert clean("x" * 100) == "x" * 64
    assert likeness("Міla") == likeness("MILA")  # a Cyrillic М and і beside Latin letters
    assert likeness("Ann") != likeness("Anna")


async def test_invisible_and_look_alike_names_are_refused(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    ann = tg.add_user("Ann")
    group = tg.add_group("Lobby", [ann])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await keeping_lobby(tg, hub, group, ann)
        await keeping.tap("✋ Join")
        reply = await keeping.send("/add Mila, Mi\u200bla, \u200b\u200b, Міla, \u202eann")
        assert reply.splitlines() == [
            "Added: Mila",
            "Mila is already at the table.",
            "A name with nothing visible in it cannot be added.",
            "Міla is already at the table.",
            "ann is already at the table.",
        ]
        assert "Players, clockwise (2/3): Ann, Mila" in keeping.message().text


async def test_a_long_add_is_answered_within_a_message(tg: FakeTelegram, tmp_path: Path) -> None:
    ann = tg.add_user("Ann")
    group = tg.add_group("Lobby", [ann])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await keeping_lobby(tg, hub, group, ann)
        names = [f"Player{n:03} With A Long Family Name" for n in range(300)]
        reply = await keeping.send("/add " + ", ".join(names))
        lines = reply.splitlines()
        assert lines[0] == "Added: Player000 With A Long Family Name, Player001 With A Long " \
                           "Family Name, Player002 With A Long Family Name"
        told = len(lines) - 2  # the names, and the count of the rest
        assert lines[-1] == f"…and {297 - told} more names not added."
        assert len(reply) < MESSAGE_LIMIT


async def test_undo_with_nothing_entered_is_answered(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob, cid = (tg.add_user(n) for n in ("Ann", "Bob", "Cid"))
    group = tg.add_group("Cards", [ann, bob, cid])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob, cid))
        assert await keeping.send("/undo") == "No deal has been entered yet."
