"""The Telegram front end: the only package that imports ``telegram``.

A handler reads an update into plain values, calls a use case
(``bot.service``), and hands its outcome to the presenter, which draws the
screens (``bot.screens``) and queues them in the outbox.
"""
