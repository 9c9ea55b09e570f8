"""The composition root: storage, services, presenter and the PTB Application, wired."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import Any

from bot.config import Settings
from bot.monitoring.server import Monitor, routes
from bot.monitoring.server import serve as serve_metrics
from bot.screens.look import AppLinks
from bot.service import loading
from bot.service.ports import Scheduler, Services
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices, Sinks
from bot.service.users import Users
from bot.telegram import application
from bot.telegram.commands import set_menus
from bot.telegram.connect import connect
from bot.telegram.context import App
from bot.telegram.lane_jobs import LaneJobs
from bot.telegram.presenter import Presenter
from bot.telegram.reactions import Reactions
from bot.telegram.sending.book import MessageBook
from bot.telegram.sending.budgets import Budgets
from bot.telegram.sending.outbox import Outbox
from bot.telegram.sending.ports import GroupCalls, SendQueue, SharedBudget
from bot.telegram.worker import Worker
from bot.ui.i18n import languages
from storage.budgets import GroupCalls as StoredGroupCalls
from storage.budgets import SharedBudget as PostgresBudget
from storage.postgres import PostgresDatabase
from storage.sends import SendQueue as PostgresSendQueue
from storage.store import Storage

log = logging.getLogger(__name__)


def _same(scheduler: Scheduler) -> Scheduler:
    return scheduler


def build_application(settings: Settings) -> App:
    return application.build(settings, start=start, stop=stop)


async def start(app: App) -> Services:
    """Open storage, restore every open table and register the command menus."""
    settings = app.bot_data.settings
    assert settings is not None
    storage = await Storage.open(settings.database)
    storage.db.outage.limit = settings.outage_limit
    group_calls = StoredGroupCalls(storage.db)
    await group_calls.prune()
    svc, presenter = await compose(app, storage, group_calls=group_calls)
    budgets = presenter.outbox.budgets
    budgets.counted_before(await group_calls.recent(budgets.group_window))
    await set_menus(app, storage.marks)
    restored, problems = await loading.restore(svc)
    if await svc.store.chats.any_user():  # the process before may have written to them
        presenter.outbox.budgets.after_restart()  # a moment ago, open tables or not
    svc.publish(restored)
    await presenter.book.unpin_ended()
    for problem in problems:
        log.error("needs attention: %s", problem)
    watch = monitor(app, svc, presenter)
    if settings.webapp_port is not None:
        await _start_mini_app(app, settings, svc, presenter, watch)
    if settings.metrics_port is not None:
        app.bot_data.metrics = await serve_metrics(watch, settings.metrics_port)
    log.info("@%s is up: %d tables loaded at start, the others when first touched",
             app.bot.username, len(svc.tables.by_id))
    return svc


async def compose(app: App, storage: Storage, *, jobs: Callable[[Scheduler], Scheduler] = _same,
                  shared: SharedBudget | None = None,
                  queue: SendQueue | None = None,
                  group_calls: GroupCalls | None = None) -> tuple[Services, Presenter]:
    """The services and the presenter on ``storage``; ``jobs`` wraps the timers' scheduler
    (a worker runs each job in its table's lane), ``shared``: budgets shared by workers,
    ``queue``: their kept one-off calls, ``group_calls``: a single process's calls to groups,
    kept for after a restart."""
    settings = app.bot_data.settings
    assert settings is not None
    me = app.bot.bot  # asked of Telegram once, by the application's initialize
    job_queue = app.job_queue
    scheduler = None if job_queue is None else jobs(APSchedulerJobs(job_queue.scheduler))
    svc = LiveServices(storage, Users(storage, tuple(languages())), scheduler=scheduler)
    links = None if settings.webapp_url is None else AppLinks(settings.webapp_url,
                                                               me.username or "")
    book = MessageBook(svc)
    budgets = Budgets(group_limit=settings.group_limit, window_speed=settings.window_speed,
                      overall_limit=settings.overall_limit, shared=shared,
                      group_calls=group_calls)
    reactions = Reactions(svc, lambda outcome: svc.publish(outcome))
    book.outbox = outbox = Outbox(app.bot, book, budgets, troubles=reactions, queue=queue)
    presenter = Presenter(svc, outbox, book, me.username or "", app=links)
    svc.publish = presenter.show
    app.bot_data.services, app.bot_data.presenter = svc, presenter
    return svc, presenter


def monitor(app: App, svc: Services, presenter: Presenter, **worker: Any) -> Monitor:
    """What /healthz and /metrics read of this process (``worker``: a worker's heartbeat
    and lanes)."""
    return Monitor(svc.store.tables.count_open, ask_telegram=app.bot.get_me,
                   backlog=presenter.outbox.backlog, loaded=lambda: len(svc.tables.by_id),
                   **worker)


async def _start_mini_app(app: App, settings: Settings, svc: Services,
                          presenter: Presenter, watch: Monitor) -> None:
    """The Mini App's web server, in this process: a second sink of ``publish`` beside the
    presenter; /healthz and /metrics on its port too."""
    from bot.telegram.members import ChatMembers
    from bot.webapp.server import WebApp  # aiohttp is loaded only for the Mini App

    assert settings.webapp_port is not None
    app.bot_data.webapp = webapp = WebApp(svc, settings.token, ChatMembers(app.bot),
                                          port=settings.webapp_port)
    webapp.app.add_routes(routes(watch))
    svc.publish = Sinks(svc.publish, webapp.watch.published)
    await webapp.start()


def _mini_app_of_worker(worker: Worker, settings: Settings, db: PostgresDatabase) -> None:
    """The Mini App served by this worker too (bot/webapp/relay.py): its sink tells every
    process of the tables a unit of work changed, in the unit's transaction, and its taps
    are units of work in their tables' lanes."""
    from bot.telegram.members import ChatMembers
    from bot.webapp.relay import BODY, do_tap
    from bot.webapp.server import WebApp

    assert settings.webapp_port is not None
    svc = worker.svc
    worker.app.bot_data.webapp = webapp = WebApp(svc, settings.token,
                                                 ChatMembers(worker.app.bot),
                                                 port=settings.webapp_port, workers=db)
    assert webapp.relay is not None
    svc.publish = Sinks(svc.publish, webapp.relay.broadcast)
    worker.before_commit.append(webapp.relay.broadcast.flush)
    worker.bodies[BODY] = lambda tap: do_tap(svc, tap)


async def stop(app: App) -> None:
    svc, presenter = app.bot_data.services, app.bot_data.presenter
    if app.bot_data.webapp is not None:
        await app.bot_data.webapp.stop()
    if app.bot_data.metrics is not None:
        await app.bot_data.metrics.cleanup()
    if presenter is not None:
        await presenter.outbox.drain()
    if svc is not None:
        await svc.store.close()


async def new_worker(settings: Settings, *, name: str | None = None) -> Worker:
    """A worker (bot/telegram/worker.py) with its application initialized, its services and
    presenter composed; nothing started."""
    app = build_application(settings)
    storage = await Storage.open(settings.database)
    db = storage.db
    assert isinstance(db, PostgresDatabase), "workers need DATABASE_URL (PostgreSQL)"
    db.outage.limit = settings.outage_limit
    await connect(app.initialize)
    worker = Worker(app, db, name=name)
    _, presenter = await compose(app, storage, jobs=lambda jobs: LaneJobs(jobs, worker),
                                 shared=PostgresBudget(db),
                                 queue=PostgresSendQueue(db, worker.id))
    presenter.book.fence = worker.ours
    worker.svc.users.shared = True
    if settings.webapp_port is not None:
        _mini_app_of_worker(worker, settings, db)
    presenter.outbox.budgets.after_restart()
    return worker


async def work(settings: Settings) -> None:
    """``python -m bot work``: one worker (bot/telegram/worker.py) until SIGTERM or SIGINT."""
    worker = await new_worker(settings)
    app = worker.app
    await set_menus(app, worker.svc.store.marks)
    await app.start()
    await worker.svc.timers.start()
    if app.bot_data.webapp is not None:
        await app.bot_data.webapp.start()
    if settings.metrics_port is not None:
        watch = monitor(app, worker.svc, worker.presenter, heartbeat=worker.since_beat,
                        lanes=lambda: len(worker.versions))
        app.bot_data.metrics = await serve_metrics(watch, settings.metrics_port)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    try:
        await worker.run(stopping)
    finally:
        await app.stop()
        await stop(app)
        await app.shutdown()
