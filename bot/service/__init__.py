"""Use cases: what a press, a command or a timer does, with no Telegram and no translated text.

Every entry point takes plain values, changes tables under their locks, stores
what it changed before returning, and returns an ``Outcome``: ok or a
``Refusal(code, params)``, which tables to redraw, whom to notify, and the
events the group and the players are to be told of. ``bot.telegram``'s
presenter (and the Mini App) turn outcomes into messages.
"""
