"""How far a competition has got, for the pages and endpoints of tournaments and leagues
alike: its matches counted by status."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet
from matches.models import Match, MatchStatus


@dataclass(frozen=True)
class MatchCounts:
    """How far a tournament (or a league) has got: matches by status."""

    total: int
    finished: int
    errors: int

    @property
    def done(self) -> int:
        return self.finished + self.errors

    @property
    def pending(self) -> int:
        return self.total - self.done

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


def match_progress(matches: QuerySet[Match]) -> MatchCounts:
    counts = {row["status"]: row["n"] for row in matches.values("status").annotate(n=Count("pk"))}
    return MatchCounts(
        total=sum(counts.values()),
        finished=counts.get(MatchStatus.FINISHED, 0),
        errors=counts.get(MatchStatus.ERROR, 0),
    )
