"""What a match returns: per-seat outcomes, the match outcome, and how faults become ranks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Seat statuses (bot-protocol.md, "Results").
OK = "ok"
TIMEOUT = "timeout"  # retired: it did not answer in time
CRASHED = "crashed"  # retired: its process exited or was killed
ILLEGAL = "illegal"  # played to the end but committed at least one fault
RETIRED = "retired"  # retired: fault limit reached, no ready, or output over the line cap

FINISHED = "finished"
ERROR = "error"


@dataclass
class SeatOutcome:
    bot: str
    score: int | float | None = None
    rank: int | None = None
    status: str = OK
    faults: list[dict[str, Any]] = field(default_factory=list)
    time_ms: float = 0.0
    name: str | None = None  # what the bot called itself in "ready"
    retired_turn: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "name": self.name,
            "score": self.score,
            "rank": self.rank,
            "status": self.status,
            "faults": self.faults,
            "time_ms": round(self.time_ms, 3),
            "retired_turn": self.retired_turn,
        }


@dataclass
class MatchOutcome:
    """``status`` is "finished", or "error" for a system failure (then ``error`` says what;
    such a match must not be rated). ``replay`` is always filled in, also on error."""

    match_id: str
    game: str
    seed: int
    status: str
    error: str | None
    result: dict[str, Any]
    seats: list[SeatOutcome]
    replay: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.status == FINISHED

    def to_json(self, *, replay: bool = False) -> dict[str, Any]:
        """A summary for scripts (``arena play --json``); with ``replay=True`` also the replay."""
        out: dict[str, Any] = {
            "match_id": self.match_id,
            "game": self.game,
            "seed": self.seed,
            "options": self.replay.get("options", {}),
            "status": self.status,
            "error": self.error,
            "result": self.result,
            "seats": [s.to_json() for s in self.seats],
        }
        if replay:
            out["replay"] = self.replay
        return out


def final_ranks(game_ranks: list[int], retired: list[bool]) -> list[int]:
    """Competition ranks where every retired seat ranks below every seat that was not retired;
    within each group the game's own order (and ties) holds."""
    keys = [(r, g) for g, r in zip(game_ranks, retired, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def seat_status(faults: list[dict[str, Any]], retired_by: str | None) -> str:
    """A seat's status from its faults and, if it was retired, the fault kind that retired it."""
    if retired_by == "timeout":
        return TIMEOUT
    if retired_by == "crash":
        return CRASHED
    if retired_by is not None:
        return RETIRED
    return ILLEGAL if faults else OK
