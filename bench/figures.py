"""One measured figure and its table row."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Figure:
    section: str
    name: str
    value: float
    unit: str
    note: str = ""

    def row(self) -> str:
        value = f"{self.value:,.0f}" if self.value >= 100 else f"{self.value:,.3g}"
        text = f"{self.section:<9} {self.name:<48} {value:>14} {self.unit}"
        return f"{text}  ({self.note})" if self.note else text

    def as_dict(self) -> dict[str, object]:
        return asdict(self)
