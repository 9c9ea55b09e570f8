"""Where the Mini App opens from, and its settings: nothing of it while WEBAPP_URL is unset."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from tests.bot.harness import running_bot
from tests.fakebot import FakeTelegram
from tests.webapp.harness import started

TOKEN = "123456789:AAF4ke-T0ken_for-the-fake-Bot-API-srv"


@pytest.mark.parametrize(("env", "message"), [
    ({"WEBAPP_URL": "https://cards.example.org/app"}, "go together"),
    ({"WEBAPP_PORT": "8081"}, "go together"),
    ({"WEBAPP_URL": "cards.example.org", "WEBAPP_PORT": "8081"}, "WEBAPP_URL must be"),
    ({"WEBAPP_URL": "http://cards.example.org/", "WEBAPP_PORT": "8081"}, "https"),
    ({"WEBAPP_URL": "https://cards.example.org/", "WEBAPP_PORT": "0"}, "WEBAPP_PORT"),
])
def test_bad_mini_app_settings_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({"BOT_TOKEN": TOKEN, **env})


def test_the_mini_app_is_off_unless_set() -> None:
    off = load_settings({"BOT_TOKEN": TOKEN})
    assert off.webapp_url is None and off.webapp_port is None
    on = load_settings({"BOT_TOKEN": TOKEN, "WEBAPP_URL": "https://cards.example.org/app",
                        "WEBAPP_PORT": "8081"})
    assert (on.webapp_url, on.webapp_port) == ("https://cards.example.org/app", 8081)


async def test_no_launch_button_while_the_mini_app_is_off(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await started(tg, hub, group, users)
        assert hub.webapp is None
        buttons = [b for chat in (group, *users) for m in tg.messages(chat) for b in m.buttons]
        assert any("callback_data" in b for b in buttons)
        assert not [b for b in buttons if "web_app" in b or "startapp" in b.get("url", "")]
