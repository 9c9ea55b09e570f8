"""Configuration from the environment; a missing or malformed setting is one clear line."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlparse

from storage.store import is_postgres

_TOKEN = re.compile(r"^\d+:[A-Za-z0-9_-]{20,}$")
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is the one line to print."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: str = "./cardtable.db"
    database_url: str | None = None  # postgresql://...: PostgreSQL instead of the SQLite file
    api_base_url: str = "https://api.telegram.org/bot"
    api_base_file_url: str = "https://api.telegram.org/file/bot"
    webhook_url: str | None = None
    port: int = 8443
    log_level: str = "INFO"
    group_limit: int = 18  # messages plus edits per minute in a group (Telegram allows 20)
    overall_limit: int = 28  # calls per second over all chats (Telegram allows about 30)

    @property
    def database(self) -> str:
        """Where storage lives: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))


def _url(name: str, value: str) -> str:
    parsed = urlparse(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ConfigError(f"{name} must be an http(s) URL, got {value!r}")
    return value


def database_settings(env: Mapping[str, str]) -> tuple[str, str | None]:
    """DATABASE_PATH and DATABASE_URL (None if unset): the bot's and its command-line
    tools'."""
    path = env.get("DATABASE_PATH", "./cardtable.db").strip()
    if not path:
        raise ConfigError("DATABASE_PATH is empty")
    database_url = env.get("DATABASE_URL", "").strip() or None
    if database_url is not None and (not is_postgres(database_url)
                                     or not urlparse(database_url).netloc):
        raise ConfigError("DATABASE_URL must be a postgresql:// URL, e.g. "
                          f"postgresql://user:password@host:5432/cardtable, got {database_url!r}")
    return path, database_url


def load_settings(env: Mapping[str, str]) -> Settings:
    """Read BOT_TOKEN, DATABASE_PATH, DATABASE_URL, TELEGRAM_API_BASE_URL,
    TELEGRAM_API_BASE_FILE_URL, WEBHOOK_URL, PORT, LOG_LEVEL, GROUP_MESSAGES_PER_MINUTE and
    TELEGRAM_CALLS_PER_SECOND."""
    token = env.get("BOT_TOKEN", "").strip()
    if not token:
        raise ConfigError("BOT_TOKEN is not set: get a token from @BotFather and export it")
    if not _TOKEN.match(token):
        raise ConfigError("BOT_TOKEN is malformed: expected '<digits>:<secret>' from @BotFather")
    port_text = env.get("PORT", "8443").strip()
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ConfigError(f"PORT must be a port number 1-65535, got {port_text!r}")
    level = env.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}")
    webhook = env.get("WEBHOOK_URL", "").strip() or None
    if webhook is not None:
        _url("WEBHOOK_URL", webhook)
    limit_text = env.get("GROUP_MESSAGES_PER_MINUTE", "18").strip()
    if not limit_text.isdigit() or int(limit_text) < 1:
        raise ConfigError(
            f"GROUP_MESSAGES_PER_MINUTE must be a positive number, got {limit_text!r}")
    overall_text = env.get("TELEGRAM_CALLS_PER_SECOND", "28").strip()
    if not overall_text.isdigit() or int(overall_text) < 1:
        raise ConfigError(
            f"TELEGRAM_CALLS_PER_SECOND must be a positive number, got {overall_text!r}")
    path, database_url = database_settings(env)
    return Settings(
        token=token,
        database_path=path,
        database_url=database_url,
        api_base_url=_url("TELEGRAM_API_BASE_URL",
                          env.get("TELEGRAM_API_BASE_URL", Settings.api_base_url).strip()),
        api_base_file_url=_url("TELEGRAM_API_BASE_FILE_URL",
                               env.get("TELEGRAM_API_BASE_FILE_URL",
                                       Settings.api_base_file_url).strip()),
        webhook_url=webhook,
        port=int(port_text),
        log_level=level,
        group_limit=int(limit_text),
        overall_limit=int(overall_text),
    )
