"""Sending to Telegram within its limits, without losing the final state.

One job per module: ``limits`` (Telegram's limits, a sliding window), ``budgets`` (what each
chat and the bot may spend now), ``slots`` (messages kept up to date, coalesced), ``chats`` and
``queues`` (each chat's queue, sent in order by one task, with the API calls), ``held`` (a
worker's sends held until its unit commits, kept, resumed), ``outbox`` (the API the presenter
and the handlers use), ``book`` (which message shows what: the only writer of storage here),
``ports`` (what it needs from storage and tells back).
"""
