"""A page of a listing, as the pipeline hands it to the archive builders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_PER_PAGE = 50


@dataclass(slots=True)
class Page:
    """Items of one page plus what the links and totals need."""

    items: list[dict[str, Any]]
    total: int
    page: int
    per_page: int
    link_params: list[tuple[str, str]] = field(default_factory=list)
    """The listing's effective filters, in the order the original writes them into URLs."""

    @property
    def total_pages(self) -> int:
        return (self.total + self.per_page - 1) // self.per_page if self.total else 0


def clamp_per_page(value: int) -> int:
    """Values above 50 are reduced to 50 without an error (the original's cap)."""
    return min(value, MAX_PER_PAGE)
