"""What a use case returns: ok or a refusal, what to redraw, whom to notify, what happened."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.base import ActionError

if TYPE_CHECKING:
    from bot.service.tables import Table


@dataclass(frozen=True)
class Refusal:
    """Why nothing happened: a stable ``code`` with the values its explanation needs.

    ``message`` is the engine's own English explanation when the refusal is the
    engine's (often more precise than a template: it may name every card).
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""

    @classmethod
    def of(cls, error: ActionError) -> Refusal:
        return cls(error.code, dict(error.params), error.message)


@dataclass(frozen=True)
class Setting:
    """A lobby setting as a press left it, for its answer ("Players: 4"): a rules option of
    ``game``, or (``game`` None) a time setting."""

    key: str
    value: Any
    game: str | None = None


@dataclass(eq=False)
class Outcome:
    """The result of one use case, built up as it goes.

    - ``refusal``: nothing changed, and why (a press gets it as an alert);
    - ``note``: a code the press is answered with when something did happen;
    - ``link``: a deep-link payload the press should open (the bot's private chat);
    - ``changed``: tables whose messages show their state anew; ``notify``: users whose
      panel comes as a new message (a notification) instead of an edit; ``urge``: users whose
      panel shows the table at once (it would wait for the table's next beat); ``renew``:
      tables whose group message comes anew below the latest messages; ``as_shown``: tables
      just loaded whose messages show them as they are now (nothing to send);
    - ``events``: what the group or players are told, in order.
    """

    refusal: Refusal | None = None
    note: str | None = None
    note_params: dict[str, Any] = field(default_factory=dict)
    link: str | None = None
    changed: dict[int, Table] = field(default_factory=dict)
    notify: set[int] = field(default_factory=set)
    urge: set[int] = field(default_factory=set)
    renew: set[int] = field(default_factory=set)
    as_shown: dict[int, Table] = field(default_factory=dict)
    events: list[Any] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.refusal is None

    def refuse(self, code: str, **params: Any) -> Outcome:
        self.refusal = Refusal(code, params)
        return self

    def refuse_error(self, error: ActionError) -> Outcome:
        self.refusal = Refusal.of(error)
        return self

    def done(self, note: str, **params: Any) -> Outcome:
        self.note, self.note_params = note, params
        return self

    def redraw(self, table: Table, notify: Iterable[int | None] = (),
               urge: Iterable[int] = ()) -> Outcome:
        self.changed[table.id] = table
        self.notify.update(u for u in notify if u is not None)
        self.urge.update(urge)
        return self

    def come_anew(self, table: Table) -> Outcome:
        """The table's group message is posted again below the latest messages."""
        self.renew.add(table.id)
        return self.redraw(table)

    def tell(self, event: Any) -> Outcome:
        self.events.append(event)
        return self


def refused(code: str, **params: Any) -> Outcome:
    return Outcome().refuse(code, **params)
