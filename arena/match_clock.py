"""A match's own deadline (``run_match(deadline_s=...)``), as every wait of the referee sees it.

Each wait for a seat (the answer to ``start``, every decision, a person's move) ends at the
nearer of its own clock and this deadline, so no decision outlives the match: a bot thinking
far past the match's limit under a huge ``move_ms`` is cut off at the deadline, and the match
ends there as an error naming the limit (``PastDeadline``), as it does between decisions."""

from __future__ import annotations

import time
from dataclasses import dataclass


class PastDeadline(Exception):
    """The match ran past its deadline (``str()``: "the match took over N s")."""


@dataclass(frozen=True)
class MatchDeadline:
    #: ``time.perf_counter()`` when the match must end.
    at: float
    #: The limit as given, for the message.
    limit_s: float

    @classmethod
    def after(cls, limit_s: float) -> MatchDeadline:
        return cls(time.perf_counter() + limit_s, limit_s)

    def error(self) -> PastDeadline:
        return PastDeadline(f"the match took over {self.limit_s:.0f} s")

    def check(self) -> None:
        """Raise :class:`PastDeadline` once the deadline has come."""
        if time.perf_counter() >= self.at:
            raise self.error()


def nearer(until: float, deadline: MatchDeadline | None) -> tuple[float, bool]:
    """The end of a wait that should last until ``until`` (``perf_counter`` seconds), bounded by
    the match's deadline, and whether the deadline is what ends it (its wait's running out
    then means the match is over, not that the seat was late)."""
    if deadline is not None and deadline.at < until:
        return deadline.at, True
    return until, False
