"""What a button press answers: a toast, an alert, or a link to open."""

from __future__ import annotations

from dataclasses import dataclass

ALERT_LIMIT = 200


@dataclass(frozen=True)
class Answer:
    text: str = ""
    alert: bool = False
    url: str | None = None

    @classmethod
    def refuse(cls, text: str) -> Answer:
        """A press that changed nothing, with the reason in an alert."""
        return cls(text[:ALERT_LIMIT], alert=True)

    @classmethod
    def note(cls, text: str) -> Answer:
        return cls(text[:ALERT_LIMIT])


OK = Answer()
