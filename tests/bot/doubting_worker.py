"""``python -m tests.bot.doubting_worker TEXT``: a worker (``python -m bot work``) whose
COMMIT of the first unit of work that kept a call with TEXT in its JSON goes through, and then
fails as when the server goes away before it answers (``ConnectionResetError``): the worker
cannot know that the unit was committed."""

from __future__ import annotations

import sys
from contextvars import ContextVar

from asyncpg.transaction import Transaction

from bot.__main__ import main
from bot.telegram.sending.held import Held
from bot.telegram.sending.outbox import Outbox

_doubted: ContextVar[bool] = ContextVar("doubted", default=False)  # this unit's COMMIT fails


def doubt_at(text: str) -> None:
    keep, commit = Outbox.keep, Transaction.commit
    left = [1]

    async def keeping(outbox: Outbox, held: Held) -> None:
        await keep(outbox, held)
        if left and any(text in call.text() for call in held.calls()):
            left.clear()
            _doubted.set(True)

    async def committing(transaction: Transaction) -> None:
        await commit(transaction)
        if _doubted.get():
            _doubted.set(False)
            raise ConnectionResetError("the server went away before it answered the COMMIT")

    Outbox.keep = keeping  # type: ignore[method-assign]
    Transaction.commit = committing  # type: ignore[method-assign]


if __name__ == "__main__":
    doubt_at(sys.argv[1])
    sys.exit(main(["work"]))
