"""PTB's context for this bot: handlers reach the services and the presenter through it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from bot.config import Settings
from bot.service.ports import Services
from bot.telegram.presenter import Presenter

if TYPE_CHECKING:
    from aiohttp.web import AppRunner


class Server(Protocol):
    """A server beside the bot (the Mini App's), started and stopped with it."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...



@dataclass
class BotData:
    """The application's shared data (PTB makes one, empty, at start)."""

    settings: Settings | None = None
    services: Services | None = None
    presenter: Presenter | None = None
    webapp: Server | None = None  # the Mini App's web server, when it is on
    metrics: AppRunner | None = None  # /healthz and /metrics on METRICS_PORT, when it is set


class Context(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]):
    @property
    def services(self) -> Services:
        services = self.bot_data.services
        assert services is not None, "the bot has not started"
        return services

    @property
    def presenter(self) -> Presenter:
        presenter = self.bot_data.presenter
        assert presenter is not None, "the bot has not started"
        return presenter


CONTEXT_TYPES = ContextTypes(context=Context, bot_data=BotData)
App = Application[ExtBot[None], Context, dict[Any, Any], dict[Any, Any], BotData, Any]
