"""The table of Bot API methods the fake server implements."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.fakebot.params import Params
from tests.fakebot.world import World

Handler = Callable[[World, Params], Awaitable[Any]]
METHODS: dict[str, tuple[str, Handler]] = {}  # lower-case name -> (name, handler)


def method(name: str) -> Callable[[Handler], Handler]:
    """Register a handler; method names are case-insensitive, as on the real server."""

    def register(handler: Handler) -> Handler:
        METHODS[name.lower()] = (name, handler)
        return handler

    return register
