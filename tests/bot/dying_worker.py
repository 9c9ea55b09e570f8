"""``python -m tests.bot.dying_worker TEXT``: a worker (``python -m bot work``) that kills
itself with SIGKILL once it committed work that kept a call (a one-off call, a press's answer,
a pin) whose JSON has TEXT in it, before any of its calls is made (``Outbox.release``)."""

from __future__ import annotations

import os
import signal
import sys

from bot.__main__ import main
from bot.telegram.sending.held import Held
from bot.telegram.sending.outbox import Outbox


def die_at(text: str) -> None:
    release = Outbox.release

    def dying(outbox: Outbox, held: Held) -> None:
        if any(text in call.text() for call in held.calls()):
            os.kill(os.getpid(), signal.SIGKILL)
        release(outbox, held)

    Outbox.release = dying  # type: ignore[method-assign]


if __name__ == "__main__":
    die_at(sys.argv[1])
    sys.exit(main(["work"]))
