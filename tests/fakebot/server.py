"""The HTTP side: routes, request decoding, dispatch, flood control, webhook delivery."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import aiohttp
from aiohttp import web

import tests.fakebot.methods  # noqa: F401  (registers the handlers)
from tests.fakebot.errors import NOT_FOUND, UNAUTHORIZED, ApiError, bad_request, too_many_requests
from tests.fakebot.model import ApiCall
from tests.fakebot.params import Params, UploadedFile
from tests.fakebot.registry import METHODS
from tests.fakebot.world import World

MAX_UPLOAD = 50 * 1024 * 1024
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_TIMEOUT = aiohttp.ClientTimeout(total=10)
_LOGGER = logging.getLogger(__name__)


async def _read_params(request: web.Request) -> dict[str, Any]:
    """Query string plus body: JSON, urlencoded or multipart (files as UploadedFile)."""
    raw: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError:
            raise bad_request("can't parse JSON object") from None
        if not isinstance(body, dict):
            raise bad_request("can't parse JSON object")
        raw.update(body)
    elif request.can_read_body:
        for name, value in (await request.post()).items():
            raw[name] = (
                UploadedFile(value.filename, value.content_type, value.file.read())
                if isinstance(value, web.FileField)
                else value
            )
    return raw


def _answer(error: ApiError) -> web.Response:
    return web.json_response(error.body(), status=error.code)


class ApiServer:
    """Serves the Bot API for one bot on a loopback port."""

    def __init__(self, world: World, *, webhook_retry_delay: float = 0.2) -> None:
        self.world = world
        self.webhook_retry_delay = webhook_retry_delay
        self.port = 0
        self.in_flight = 0  # requests being handled, long polls excluded
        self.delivering = False  # a webhook POST is under way
        self.last_activity = 0.0  # loop time of the last request or delivery
        self.crashes: list[BaseException] = []  # bugs of the fake itself
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._delivery: asyncio.Task[None] | None = None

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application(client_max_size=MAX_UPLOAD)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        self._runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)  # 0: any free port
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._session = aiohttp.ClientSession()
        self._delivery = asyncio.create_task(self._deliver_webhook(), name="fakebot-webhook")
        self.last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        self.world.closed = True
        self.world.updates_signal.notify()
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        world = self.world
        name = request.match_info["method"]
        entry = METHODS.get(name.lower())
        call = ApiCall(entry[0] if entry else name, {}, None, world.now())
        world.calls.append(call)
        polling = call.method == "getUpdates"
        if not polling:
            self.in_flight += 1
        try:
            token = request.match_info["token"]
            if token != world.token:
                raise UNAUTHORIZED if ":" in token else NOT_FOUND
            if entry is None:
                raise NOT_FOUND
            params = Params(await _read_params(request))
            call.params, call.chat_id = params.loggable(), params.get("chat_id")
            result = await self._run(call, params)
        except ApiError as error:
            call.status, call.description = error.code, error.description
            return _answer(error)
        except asyncio.CancelledError:
            call.status, call.description = 499, "the client closed the connection"
            raise
        except Exception as crash:  # a bug of the fake: fail the test that met it
            self.crashes.append(crash)
            _LOGGER.exception("fake Bot API crashed on %s", call.method)
            call.status, call.description = 500, f"Internal Server Error: {crash!r}"
            return _answer(ApiError(500, call.description))
        finally:
            if not polling:
                self.in_flight -= 1
            self.last_activity = asyncio.get_running_loop().time()
        call.status = 200
        return web.json_response({"ok": True, "result": result})

    async def _run(self, call: ApiCall, params: Params) -> Any:
        """Forced errors first, then flood control, then the method itself."""
        world = self.world
        forced = next((f for f in world.forced if f.matches(call.method, call.chat_id)), None)
        if forced is not None:
            forced.times -= 1
            if forced.times <= 0:
                world.forced.remove(forced)
            raise forced.error
        chat = world.chats.get(call.chat_id) if isinstance(call.chat_id, int) else None
        chat_id = chat.id if chat else None
        is_group = chat is not None and chat.is_group
        now = world.flood_now()
        wait = world.flood.retry_after(call.method, chat_id, is_group, now)
        if wait:
            world.flood.refused += 1
            raise too_many_requests(wait)
        result = await METHODS[call.method.lower()][1](world, params)
        world.flood.record(call.method, chat_id, is_group, now)
        return result

    async def _download(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.world.token:
            return _answer(UNAUTHORIZED)
        path = request.match_info["path"]
        for stored in self.world.files.values():
            if stored.file_path == path:
                return web.Response(body=stored.data, content_type=stored.mime_type)
        return _answer(NOT_FOUND)

    async def _deliver_webhook(self) -> None:
        """POST pending updates to the webhook one at a time, retrying failures."""
        world = self.world
        assert self._session is not None
        while not world.closed:
            hook = world.webhook
            if not hook.url or not world.pending:
                await world.updates_signal.wait(1.0)
                continue
            update = world.pending[0]
            headers = {SECRET_HEADER: hook.secret_token} if hook.secret_token else {}
            error: str | None = None
            self.delivering = True
            try:
                async with self._session.post(
                    hook.url,
                    data=json.dumps(update.api()),
                    headers={"Content-Type": "application/json", **headers},
                    timeout=WEBHOOK_TIMEOUT,
                ) as response:
                    if response.status >= 300:
                        error = (
                            f"Wrong response from the webhook: {response.status} {response.reason}"
                        )
            except (aiohttp.ClientError, TimeoutError) as exc:
                error = f"Connection failed: {exc.__class__.__name__}"
            finally:
                self.delivering = False
                self.last_activity = asyncio.get_running_loop().time()
            if error is None:
                if update in world.pending:
                    world.pending.remove(update)
                continue
            hook.last_error_date, hook.last_error_message = int(world.now()), error
            await asyncio.sleep(self.webhook_retry_delay)
