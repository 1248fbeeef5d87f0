"""What a match returns: per-seat outcomes, the match outcome, and how faults become ranks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.contract import ContractError, ErrorKind, MatchStatus, SeatStatus, check_finite

# Short names for the referee (the enums in arena.contract are the one definition).
OK = SeatStatus.OK
TIMEOUT = SeatStatus.TIMEOUT
CRASHED = SeatStatus.CRASHED
ILLEGAL = SeatStatus.ILLEGAL
RETIRED = SeatStatus.RETIRED

FINISHED = MatchStatus.FINISHED
ERROR = MatchStatus.ERROR


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

    @classmethod
    def from_json(cls, data: Any, where: str = "seat") -> SeatOutcome:
        if not isinstance(data, Mapping):
            raise ContractError(f"{where} must be an object, got {data!r}")
        bot = data.get("bot")
        if not isinstance(bot, str):
            raise ContractError(f"{where}: bot must be a string, got {bot!r}")
        rank = data.get("rank")
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise ContractError(f"{where}: rank must be a positive integer, got {rank!r}")
        try:
            status = SeatStatus(data.get("status", OK))
        except ValueError:
            raise ContractError(
                f"{where}: status must be one of {[s.value for s in SeatStatus]}, "
                f"got {data.get('status')!r}"
            ) from None
        faults = data.get("faults") or []
        if not isinstance(faults, list) or not all(isinstance(f, Mapping) for f in faults):
            raise ContractError(f"{where}: faults must be a list of objects")
        time_ms = check_finite(data.get("time_ms", 0.0), f"{where}: time_ms") or 0.0
        name = data.get("name")
        retired_turn = data.get("retired_turn")
        return cls(
            bot=bot,
            score=check_finite(data.get("score"), f"{where}: score"),
            rank=rank,
            status=status,
            faults=[dict(f) for f in faults],
            time_ms=float(time_ms),
            name=name if isinstance(name, str) else None,
            retired_turn=retired_turn if isinstance(retired_turn, int) else None,
        )


@dataclass
class MatchOutcome:
    """``status`` is "finished", or "error" for a system failure (then ``error`` says what
    and ``error_kind`` which kind of failure it is; such a match must not be rated).
    ``replay`` is always filled in, also on error."""

    match_id: str
    game: str
    seed: int
    status: str
    error: str | None
    result: dict[str, Any]
    seats: list[SeatOutcome]
    replay: dict[str, Any]
    error_kind: ErrorKind | None = None

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
            "error_kind": self.error_kind,
            "result": self.result,
            "seats": [s.to_json() for s in self.seats],
        }
        if replay:
            out["replay"] = self.replay
        return out

    @classmethod
    def from_json(cls, data: Any, *, seats: int | None = None) -> MatchOutcome:
        """Read what ``to_json(replay=True)`` wrote, checking it; ``seats`` is how many seats
        the match has. Raises :class:`ContractError` saying what is malformed."""
        if not isinstance(data, Mapping):
            raise ContractError(f"an outcome must be an object, got {type(data).__name__}")
        try:
            status = MatchStatus(str(data.get("status")))
        except ValueError:
            raise ContractError(f"outcome status {data.get('status')!r} is unknown") from None
        if status not in (FINISHED, ERROR):
            raise ContractError(f"an outcome is finished or error, not {status.value!r}")
        error = data.get("error")
        if error is not None and not isinstance(error, str):
            raise ContractError("outcome error must be a string or null")
        kind = _error_kind(data, status, error)
        replay = data.get("replay")
        if replay is not None and not isinstance(replay, Mapping):
            raise ContractError("outcome replay must be an object or null")
        result = data.get("result")
        result = {} if result is None else result
        if not isinstance(result, Mapping):
            raise ContractError("outcome result must be an object or null")
        raw_seats = data.get("seats") or []
        if not isinstance(raw_seats, list):
            raise ContractError("outcome seats must be a list")
        if status == FINISHED:
            if seats is not None and len(raw_seats) != seats:
                raise ContractError(f"the referee returned {len(raw_seats)} seats for {seats}")
            if not raw_seats:
                raise ContractError("a finished outcome needs its seats")
        parsed = (
            [SeatOutcome.from_json(s, f"seat {i}") for i, s in enumerate(raw_seats)]
            if status == FINISHED
            else []
        )
        seed = data.get("seed", 0)
        return cls(
            match_id=str(data.get("match_id") or ""),
            game=str(data.get("game") or ""),
            seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else 0,
            status=status,
            error=error,
            result=dict(result),
            seats=parsed,
            replay=dict(replay) if replay is not None else {},
            error_kind=kind,
        )

    @classmethod
    def refused(cls, spec: Any, error: str, kind: ErrorKind = ErrorKind.REFUSED) -> MatchOutcome:
        """The outcome of a match that could not be played (never rated)."""
        return cls(
            match_id=str(getattr(spec, "match_id", "") or ""),
            game=str(getattr(spec, "game", "") or ""),
            seed=int(getattr(spec, "seed", 0) or 0),
            status=ERROR,
            error=error,
            result={},
            seats=[],
            replay={},
            error_kind=kind,
        )


#: The sentences of the kinds a worker from before error kinds told only in words (its
#: outcome has no ``error_kind``). Read here, once, for those outcomes; nothing else matches.
_LEGACY_KINDS = (
    ("not a security boundary", ErrorKind.NO_BOUNDARY),
    ("match refused: ", ErrorKind.REFUSED),
    ("the match took over ", ErrorKind.TIME_LIMIT),
    ("sandbox: ", ErrorKind.SANDBOX),
)


def _error_kind(
    data: Mapping[str, Any], status: MatchStatus, error: str | None
) -> ErrorKind | None:
    """The outcome's error kind (None for a finished match); an unknown kind is malformed."""
    if status != ERROR:
        return None
    raw = data.get("error_kind")
    if raw is None:
        text = error or ""
        legacy = (k for words, k in _LEGACY_KINDS if words in text)
        return next(legacy, ErrorKind.ENGINE)
    try:
        return ErrorKind(raw)
    except ValueError:
        raise ContractError(f"outcome error_kind {raw!r} is unknown") from None


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
