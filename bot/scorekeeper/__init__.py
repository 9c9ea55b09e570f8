"""Scorekeeper mode: the bot keeps the sheet of games played with real cards.

A table opened with "Keep score only" deals nothing: each deal's outcome is
entered in the group, by buttons (one message that asks the engine's entry
steps, ``engine.manual``) or in one line (``/deal``), checked by the game's
rules, stored, then announced. ``/undo`` and ``/edit N`` rebuild the sheet;
``/settle`` settles a pasted paper Preferans sheet.

- ``draft``: a deal being entered by buttons (the presses, what to ask next);
- ``entry_ui`` and ``preferans_ui``/``joker_ui``/``seep_ui``: each game's
  questions, button labels and one-line text form (``registry``);
- ``keeper``: a table's scorekeeping state; ``screen``: the group message;
- ``lobby``, ``entering``, ``corrections``: what presses and commands do;
- ``paper``: the pasted sheet of ``/settle``; ``handlers``: the commands.
"""
