"""Finished deals' analyses kept in memory (``bot.service.analysis``): a deal's analysis
never changes, and one lost with a restart is computed again."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

KEPT = 256  # analyses kept; the oldest are forgotten first


@dataclass(eq=False)
class Analyses:
    """Deals analysed, (table, deal number) -> the analysis; and whether it was posted."""

    found: OrderedDict[tuple[int, int], dict[str, Any]] = field(
        default_factory=OrderedDict)
    posted: set[tuple[int, int]] = field(default_factory=set)

    def keep(self, key: tuple[int, int], analysis: dict[str, Any]) -> None:
        self.found[key] = analysis
        while len(self.found) > KEPT:
            old, _ = self.found.popitem(last=False)
            self.posted.discard(old)
