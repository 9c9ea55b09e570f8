"""Configuration from the environment; a missing or malformed setting is one clear line."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from storage.outage import LIMIT
from storage.store import is_postgres

_TOKEN = re.compile(r"^\d+:[A-Za-z0-9_-]{20,}$")
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
LOOPBACK = ("127.0.0.1", "localhost", "::1")  # plain http is fine here (tests, development)


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
    webhook_secret: str | None = None  # the webhook's secret token (None: made from the token)
    port: int = 8443
    log_level: str = "INFO"
    group_limit: int = 18  # messages plus edits per minute in a group (Telegram allows 20)
    overall_limit: int = 28  # calls per second over all chats (Telegram allows about 30)
    # How many times faster the chats' budget windows (a group's minute, a private chat's 3 s)
    # pass than Telegram's. No environment setting: only the tests speed them up, beside their
    # fake Bot API's limits (a sped-up clock).
    window_speed: float = 1.0
    webapp_url: str | None = None  # the Mini App's public URL (None: no Mini App)
    webapp_port: int | None = None  # the port its web server listens on
    metrics_port: int | None = None  # /healthz and /metrics on a server of their own
    outage_limit: float = LIMIT  # seconds the database may be out of reach (then exit 75)

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


def _port(name: str, value: str) -> int:
    text = value.strip()
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ConfigError(f"{name} must be a port number 1-65535, got {text!r}")
    return int(text)


def _webapp(env: Mapping[str, str]) -> dict[str, Any]:
    """The Mini App: on with both WEBAPP_URL and WEBAPP_PORT, off with neither."""
    url = env.get("WEBAPP_URL", "").strip() or None
    port = env.get("WEBAPP_PORT", "").strip() or None
    if (url is None) != (port is None):
        raise ConfigError("WEBAPP_URL and WEBAPP_PORT go together: set both for the Mini App, "
                          "or neither")
    if url is None or port is None:
        return {}
    parsed = urlparse(_url("WEBAPP_URL", url))
    if parsed.scheme != "https" and parsed.hostname not in LOOPBACK:
        raise ConfigError(f"WEBAPP_URL must be https (Telegram opens Mini Apps over https only), "
                          f"got {url!r}")
    return {"webapp_url": url, "webapp_port": _port("WEBAPP_PORT", port)}


def load_settings(env: Mapping[str, str]) -> Settings:
    """Read BOT_TOKEN, DATABASE_PATH, DATABASE_URL, TELEGRAM_API_BASE_URL,
    TELEGRAM_API_BASE_FILE_URL, WEBHOOK_URL, WEBHOOK_SECRET, PORT, LOG_LEVEL,
    GROUP_MESSAGES_PER_MINUTE, TELEGRAM_CALLS_PER_SECOND, WEBAPP_URL, WEBAPP_PORT,
    METRICS_PORT and DATABASE_OUTAGE_SECONDS."""
    token = env.get("BOT_TOKEN", "").strip()
    if not token:
        raise ConfigError("BOT_TOKEN is not set: get a token from @BotFather and export it")
    if not _TOKEN.match(token):
        raise ConfigError("BOT_TOKEN is malformed: expected '<digits>:<secret>' from @BotFather")
    port = _port("PORT", env.get("PORT", "8443"))
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
    metrics_port = env.get("METRICS_PORT", "").strip()
    outage_text = env.get("DATABASE_OUTAGE_SECONDS", str(int(LIMIT))).strip()
    if not outage_text.isdigit() or int(outage_text) < 1:
        raise ConfigError(
            f"DATABASE_OUTAGE_SECONDS must be a positive number, got {outage_text!r}")
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
        webhook_secret=env.get("WEBHOOK_SECRET", "").strip() or None,
        port=port,
        log_level=level,
        group_limit=int(limit_text),
        overall_limit=int(overall_text),
        metrics_port=_port("METRICS_PORT", metrics_port) if metrics_port else None,
        outage_limit=float(outage_text),
        **_webapp(env),
    )
