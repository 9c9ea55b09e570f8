"""Scorekeeper mode: the bot keeps the sheet of games played with real cards.

A table opened with "Keep score only" deals nothing: each deal's outcome is
entered in the group, by buttons (one message that asks the engine's entry
steps, ``engine.manual``) or in one line (``/deal``), checked by the game's
rules, stored, then told. ``/undo`` and ``/edit N`` rebuild the sheet.

- ``keeper``: a table's scorekeeping state (its draft, ``bot.service.drafts``: a deal being
  entered by buttons, the presses, what to ask next, which ``Table`` holds);
- ``lobby``, ``entering``, ``corrections``, ``saving``: what presses and commands do.

Each game's words for its entry (questions, labels, the one-line text form) are the
front end's (``bot.games.<game>.entry``): the use cases take them as an ``EntryRules``.
"""
