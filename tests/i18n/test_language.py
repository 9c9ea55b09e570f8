"""/language through the bot: per chat, by buttons or by code; a group's language starts
from its first user's Telegram language; the table and its messages follow."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import act, open_table, running_bot
from tests.fakebot import FakeTelegram


async def test_language_buttons_switch_the_table_to_russian(tg: FakeTelegram,
                                                            tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        lobby = tg.last_message(group)
        assert "New Preferans table" in lobby.text
        tg.send(users[1], group, "/language")
        await tg.settled(group)
        question = tg.last_message(group)
        assert question.text == "Which language shall I write in here?"
        assert [b["text"] for b in question.buttons] == [
            "✅ English", "हिन्दी", "ქართული", "Русский", "Українська"]
        answer = await tg.press(users[1], question, text="Русский")
        await tg.settled(group)
        assert answer.text == "Теперь я пишу в этом чате по-русски."
        assert question.text == "Теперь я пишу в этом чате по-русски."  # edited in place
        assert "Новый стол: Преферанс" in lobby.text  # the table message redrawn
        assert "Вариант: Сочи" in str(lobby.buttons)
        tg.send(users[0], group, "/help")
        await tg.settled(group)
        assert "/sheet — запись счёта картинкой" in tg.last_message(group).text
        assert await hub.services.users.chat_language(group.id) == "ru"

        await tg.press(users[0], lobby, text="▶ Начать")
        await tg.idle()
        table = next(iter(hub.services.tables.values()))
        panel = tg.last_message(users[0])
        assert "Your hand" in panel.text  # a player's own panel keeps his own language
        while not table.match.outputs:  # everyone passes: raspasy
            state = table.match.state
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            await act(tg, users[state.controller(seat)],
                      "bid:pass" if "bid:pass" in legal else legal[0])
        texts = tg.texts(group)
        assert any(text.startswith("Раздача 1\nРаспасы:") for text in texts), texts[-3:]
        assert any("Ждём:" in text for text in texts)

        tg.send(users[2], group, "/language xx")
        await tg.settled(group)
        assert tg.last_message(group).text.startswith(
            "Я пишу на языках: en (English), hi (हिन्दी), ka (ქართული), ru (Русский), "
            "uk (Українська).")
        assert await hub.services.users.chat_language(group.id) == "ru"  # nothing changed
        for code, done, sheet in (
                ("uk", "Відтепер я пишу в цьому чаті українською.", "запис рахунку картинкою"),
                ("ka", "ამიერიდან ამ ჩატში ქართულად ვწერ.", "ანგარიშის ფურცელი სურათად"),
                ("hi", "अब से मैं इस चैट में हिन्दी में लिखूँगा।", "स्कोरशीट तस्वीर में")):
            tg.send(users[2], group, f"/language {code}")
            await tg.settled(group)
            assert tg.last_message(group).text == done
            tg.send(users[0], group, "/help")
            await tg.settled(group)
            assert f"/sheet — {sheet}" in tg.last_message(group).text
        tg.send(users[2], group, "/language en")
        await tg.settled(group)
        assert tg.last_message(group).text == "From now on I write in English in this chat."


async def test_private_language_and_the_default_from_telegram(tg: FakeTelegram,
                                                              tmp_path: Path) -> None:
    ivan = tg.add_user("Иван", language_code="ru")
    ann = tg.add_user("Ann", language_code="en-GB")
    group = tg.add_group("Преферанс", [ivan, ann])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        tg.send(ivan, group, "/help")  # the group's first words: its language is Ivan's
        await tg.settled(group)
        assert "/help — это сообщение" in tg.last_message(group).text
        tg.send(ann, group, "/help")
        await tg.settled(group)
        assert "/help — это сообщение" in tg.last_message(group).text
        tg.press_start(ann)
        await tg.idle()
        assert "/help — this message" in tg.last_message(ann).text
        tg.send(ann, ann, "/language ru")
        await tg.idle()
        assert tg.last_message(ann).text == "Теперь я пишу вам по-русски."
        assert hub.services.users.users[ann.id].language == "ru"
        stored = await hub.services.store.chats.get_user(ann.id)
        assert stored is not None and stored.language == "ru"
        tg.send(ann, ann, "/language")
        await tg.idle()
        question = tg.last_message(ann)
        assert question.text == "На каком языке мне вам писать?"
        answer = await tg.press(ann, question, text="English")
        assert answer.text == "From now on I write to you in English."
        stale = await tg.press(ann, question, data="lang:xx", forge=True)
        assert stale.text == "I do not write in that language any more."
        assert hub.services.users.users[ann.id].language == "en"


async def test_a_language_chosen_outlives_a_restart(tg: FakeTelegram, tmp_path: Path) -> None:
    """The first update after a restart finds the user stored: his chosen language stays,
    not Telegram's."""
    ann = tg.add_user("Ann", language_code="en-GB")
    async with running_bot(tg, tmp_path / "bot.db"):
        tg.press_start(ann)
        await tg.idle()
        tg.send(ann, ann, "/language ru")
        await tg.idle()
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        tg.send(ann, ann, "/help")
        await tg.idle()
        assert "/help — это сообщение" in tg.last_message(ann).text
        assert hub.services.users.users[ann.id].language == "ru"
