"""Start-up: configuration errors are one line; polling and webhook both serve a game;
command menus are registered for groups and private chats."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.ui.i18n import languages
from tests.bot.harness import running_bot, settings_env
from tests.fakebot import FakeTelegram

TOKEN = "123456789:AAF4ke-T0ken_for-the-fake-Bot-API-srv"


@pytest.mark.parametrize(("env", "message"), [
    ({}, "BOT_TOKEN is not set"),
    ({"BOT_TOKEN": "nonsense"}, "BOT_TOKEN is malformed"),
    ({"BOT_TOKEN": TOKEN, "PORT": "http"}, "PORT"),
    ({"BOT_TOKEN": TOKEN, "PORT": "70000"}, "PORT"),
    ({"BOT_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
    ({"BOT_TOKEN": TOKEN, "WEBHOOK_URL": "ftp://x"}, "WEBHOOK_URL"),
    ({"BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "localhost"}, "TELEGRAM_API_BASE_URL"),
    ({"BOT_TOKEN": TOKEN, "GROUP_MESSAGES_PER_MINUTE": "0"}, "GROUP_MESSAGES_PER_MINUTE"),
    ({"BOT_TOKEN": TOKEN, "DATABASE_PATH": " "}, "DATABASE_PATH"),
    ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "mysql://db/cardtable"}, "DATABASE_URL"),
    ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "postgresql://"}, "DATABASE_URL"),
])
def test_bad_settings_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(env)


def test_defaults() -> None:
    settings = load_settings({"BOT_TOKEN": TOKEN})
    assert settings.database_path == "./cardtable.db" == settings.database
    url = "postgresql://bot:secret@db:5432/cardtable"
    assert load_settings({"BOT_TOKEN": TOKEN, "DATABASE_URL": url}).database == url
    assert settings.api_base_url == "https://api.telegram.org/bot"
    assert settings.webhook_url is None and settings.port == 8443


def test_python_m_bot_without_token_says_so_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "cardtable: BOT_TOKEN is not set: get a token from @BotFather and export it"]


async def test_command_menus_for_groups_and_private_chats(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    async with running_bot(tg, tmp_path / "bot.db"):
        groups = {c["command"] for c in tg.commands({"type": "all_group_chats"})}
        private = {c["command"] for c in tg.commands({"type": "all_private_chats"})}
        assert {"newgame", "score", "history", "rules", "export", "help"} <= groups
        assert {"start", "help"} <= private
        russian = tg.commands({"type": "all_group_chats"}, language_code="ru")
        assert russian and russian != tg.commands({"type": "all_group_chats"})
    set_once = len(tg.calls_for("setMyCommands"))
    assert set_once == 2 * len(languages())  # two scopes in each language
    assert len(tg.calls_for("getMe")) == 1
    async with running_bot(tg, tmp_path / "bot.db"):  # a restart of the same deploy
        pass
    assert len(tg.calls_for("setMyCommands")) == set_once  # the menus are set already
    assert len(tg.calls_for("getMe")) == 2  # once a start


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _opens_a_lobby(tg: FakeTelegram) -> None:
    ann = tg.add_user("Ann")
    group = tg.add_group("Cards", [ann])
    tg.press_start(ann)
    tg.send(ann, group, "/pref")
    await tg.idle(quiet=0.5, timeout=20)
    assert "Preferans" in tg.last_message(group).text


async def test_webhook_mode_serves_a_lobby(tg: FakeTelegram, tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, **settings_env(tg, tmp_path / "bot.db"), "LOG_LEVEL": "WARNING",
           "WEBHOOK_URL": f"http://127.0.0.1:{port}/hook", "PORT": str(port)}
    bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env)
    try:
        for _ in range(600):  # 30 s: a loaded machine starts Python slowly
            if tg.calls_for("setWebhook"):
                break
            await asyncio.sleep(0.05)
        assert tg.calls_for("setWebhook") and not tg.calls_for("getUpdates")
        await _opens_a_lobby(tg)
    finally:
        bot.send_signal(signal.SIGTERM)
        await bot.wait()


async def _lines(stream: asyncio.StreamReader, until: str, timeout: float) -> list[str]:
    """The lines ``stream`` gives until one containing ``until``."""
    lines: list[str] = []
    async with asyncio.timeout(timeout):
        while not lines or until not in lines[-1]:
            line = await stream.readline()
            assert line, f"the bot exited before saying {until!r}: {lines}"
            lines.append(line.decode().rstrip())
    return lines


async def test_the_bot_waits_for_the_network_at_start(tmp_path: Path) -> None:
    tg = FakeTelegram()
    tg.server.port = _free_port()  # nothing answers there yet: the network is down
    env = {**os.environ, **settings_env(tg, tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env,
                                               stderr=asyncio.subprocess.PIPE)
    assert bot.stderr is not None
    try:
        down = await _lines(bot.stderr, "trying again in 2 s", timeout=60)
        await tg.start()
        up = await _lines(bot.stderr, "is up", timeout=60)
        await _opens_a_lobby(tg)
    finally:
        bot.send_signal(signal.SIGTERM)
        rest = (await bot.stderr.read()).decode()
        await bot.wait()
        await tg.stop()
    waits = [line for line in down if "Telegram is not reachable" in line]
    assert len(waits) >= 2 and waits[-1].endswith("trying again in 2 s")
    assert not any("Traceback" in text for text in [*down, *up, rest])


async def test_a_refused_token_is_one_line(tg: FakeTelegram, tmp_path: Path) -> None:
    env = {**os.environ, **settings_env(tg, tmp_path / "bot.db"),
           "BOT_TOKEN": "987654321:AAF4ke-T0ken_that-Telegram-does-not-know"}
    done = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env,
                                                stderr=asyncio.subprocess.PIPE)
    _, stderr = await asyncio.wait_for(done.communicate(), timeout=60)
    assert done.returncode == 2
    assert stderr.decode().strip().splitlines() == [
        "cardtable: BOT_TOKEN was refused by Telegram (401 Unauthorized): copy the token again "
        "from @BotFather"]
