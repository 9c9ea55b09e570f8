"""Getting updates: long polling, or a webhook the server posts to."""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import urlsplit

from tests.fakebot.errors import bad_request, conflict
from tests.fakebot.params import Params
from tests.fakebot.registry import method
from tests.fakebot.world import DEFAULT_UPDATES, UPDATE_KINDS, World

MAX_LIMIT = 100
MAX_POLL_TIMEOUT = 50.0
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


def _set_allowed(world: World, p: Params) -> None:
    """allowed_updates persists; absent keeps the last setting, [] restores the default."""
    allowed = p.get("allowed_updates")
    if allowed is None:
        return
    if not isinstance(allowed, list) or not all(isinstance(kind, str) for kind in allowed):
        raise bad_request("can't parse allowed_updates JSON array")
    world.allowed_updates = frozenset(allowed) & UPDATE_KINDS or DEFAULT_UPDATES


@method("getUpdates")
async def get_updates(world: World, p: Params) -> Any:
    if world.webhook.url:
        raise conflict(
            "can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first"
        )
    _set_allowed(world, p)
    world.confirm(p.get("offset") or 0)
    limit = min(max(p.get("limit") or MAX_LIMIT, 1), MAX_LIMIT)
    timeout = min(max(p.get("timeout") or 0, 0), MAX_POLL_TIMEOUT)
    me = object()
    world.poller = me
    world.updates_signal.notify()  # an older long poll ends with 409
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        if world.poller is not me:
            raise conflict(
                "terminated by other getUpdates request; "
                "make sure that only one bot instance is running"
            )
        remaining = deadline - asyncio.get_running_loop().time()
        if world.pending or remaining <= 0 or world.closed:
            break
        await world.updates_signal.wait(remaining)
    world.poller = None
    batch = world.pending[:limit]
    return [update.api() for update in batch]


@method("setWebhook")
async def set_webhook(world: World, p: Params) -> Any:
    url = p.text("url") or ""
    if url:
        parts = urlsplit(url)
        loopback = parts.hostname in ("127.0.0.1", "localhost", "::1")
        if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    secret = p.text("secret_token")
    if secret is not None and not _SECRET.fullmatch(secret):
        raise bad_request("secret token contains unallowed characters")
    _set_allowed(world, p)
    if p.get("drop_pending_updates"):
        world.pending.clear()
    world.webhook.url = url
    world.webhook.secret_token = secret
    world.webhook.max_connections = p.get("max_connections") or 40
    world.webhook.ip_address = p.text("ip_address")
    world.updates_signal.notify()
    return True


@method("deleteWebhook")
async def delete_webhook(world: World, p: Params) -> Any:
    if p.get("drop_pending_updates"):
        world.pending.clear()
    world.webhook.url = ""
    world.webhook.secret_token = None
    return True


@method("getWebhookInfo")
async def get_webhook_info(world: World, p: Params) -> Any:
    hook = world.webhook
    info: dict[str, Any] = {
        "url": hook.url,
        "has_custom_certificate": False,
        "pending_update_count": len(world.pending),
    }
    if hook.url:
        info["max_connections"] = hook.max_connections
        info["allowed_updates"] = sorted(world.allowed_updates)
        if hook.ip_address:
            info["ip_address"] = hook.ip_address
        if hook.last_error_date is not None:
            info["last_error_date"] = hook.last_error_date
            info["last_error_message"] = hook.last_error_message
    return info
