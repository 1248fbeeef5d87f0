"""What a recorded match adds to a table's line (tournament entries, league standings)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.ratings import MatchRecord


def seat_record(keys: Sequence[str], seats: Sequence[Any]) -> MatchRecord:
    """A recorded match's seats as ``arena.ratings`` reads them, bots named by ``keys``."""
    return MatchRecord(
        bots=tuple(keys),
        ranks=tuple(int(s.rank) for s in seats),
        scores=tuple(float(s.score) for s in seats)
        if all(s.score is not None for s in seats)
        else (),
        seat_status=tuple(s.status or "ok" for s in seats),
    )
