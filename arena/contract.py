"""The match contract: what crosses the border between whoever orders a match (the web site, a
tournament, the command line) and whoever plays it (a worker running the referee).

Stated once, here; the platform's model choices, defaults and checks derive from these names.

* :class:`MatchSpec` goes in: the game, one :class:`SeatSpec` per seat, the seed, the options
  and the :class:`TimeControl`. It names code, it never carries a sandbox choice: the worker that
  plays the match decides how bots run (its own ``ARENA_SANDBOX``).
* :class:`arena.outcome.MatchOutcome` comes back (``to_json``/``from_json`` there).
* :class:`MatchStatus` and :class:`SeatStatus` are the life of a match and how a seat ended.

Both directions are JSON (Celery's serializer): ``MatchSpec.from_json(spec.to_json()) == spec``
and ``from_json`` refuses malformed input with a :class:`ContractError` saying what is wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ContractError(ValueError):
    """A spec or an outcome that does not follow the contract; the message says where."""


class MatchKind(StrEnum):
    """Why a match was played (its creator also decides whether it is rated); the site stores
    it and its API filters by it (``?kind=``)."""

    STANDALONE = "standalone"  # created by hand (admin, scripts, tests)
    TOURNAMENT = "tournament"
    LEAGUE = "league"
    LADDER = "ladder"
    QUALIFICATION = "qualification"
    CHALLENGE = "challenge"
    HUMAN = "human"

    @property
    def label(self) -> str:
        return "With people" if self is MatchKind.HUMAN else self.value.capitalize()


class MatchStatus(StrEnum):
    """The life of a match, in order. Only ``finished`` matches are ever rated."""

    QUEUED = "queued"  # waiting for a worker (a task is on its way to one)
    RUNNING = "running"  # a worker is playing it now
    RECORDING = "recording"  # played; its outcome is being stored
    FINISHED = "finished"  # the referee returned a result and it is stored
    ERROR = "error"  # the platform failed (never a bot's fault); never rated, may be re-run

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def is_done(self) -> bool:
        return self in (MatchStatus.FINISHED, MatchStatus.ERROR)


class ErrorKind(StrEnum):
    """Why a match ended ``error``, set where it failed (the worker, the referee, the platform)
    and read by whoever must tell failures apart (the ladder waits for a sandbox that is a
    security boundary and never holds a version over it; the site shows only public texts).
    Stored beside the match's error sentence: nothing matches the sentence."""

    REFUSED = "refused"  # the worker would not play it: a bad spec or bundle, code not fetched
    NO_BOUNDARY = "no_boundary"  # strangers' code, and the worker's sandbox is no boundary
    SANDBOX = "sandbox"  # the sandbox failed (Docker unreachable, a bot that could not start)
    TIME_LIMIT = "time_limit"  # the match took over its time limit
    ENGINE = "engine"  # the engine or a built-in bot raised: a bug, never a bot's fault
    SETUP = "setup"  # the platform could not set the match up
    OUTCOME = "outcome"  # the referee's outcome was malformed: nothing could be recorded
    WORKER = "worker"  # the worker's task failed while playing
    LOST = "lost"  # no worker finished the match in its attempts

    @property
    def is_public(self) -> bool:
        """Its error text may be shown to everyone: the refusals' public texts, the time limit
        and the platform's own fixed sentences; the others' texts go to the log only."""
        return self in _PUBLIC_KINDS


_PUBLIC_KINDS = frozenset(
    {ErrorKind.REFUSED, ErrorKind.NO_BOUNDARY, ErrorKind.TIME_LIMIT, ErrorKind.SETUP}
)


class SeatStatus(StrEnum):
    """How a seat ended (bot-protocol.md, "Results")."""

    OK = "ok"
    TIMEOUT = "timeout"  # retired: it did not answer in time
    CRASHED = "crashed"  # retired: its process exited or was killed
    ILLEGAL = "illegal"  # played to the end but committed at least one fault
    RETIRED = "retired"  # retired: fault limit reached, no ready, or output over the line cap

    @property
    def label(self) -> str:
        return _SEAT_LABELS[self]

    @property
    def is_fault(self) -> bool:
        """The player's own doing (these count toward a ladder suspension)."""
        return self is not SeatStatus.OK


_SEAT_LABELS = {
    SeatStatus.OK: "OK",
    SeatStatus.TIMEOUT: "Timed out",
    SeatStatus.CRASHED: "Crashed",
    SeatStatus.ILLEGAL: "Illegal moves",
    SeatStatus.RETIRED: "Retired",
}


@dataclass(frozen=True)
class TimeControl:
    """Per bot-protocol.md: ``move_ms`` per decision, beyond it a ``bank_ms`` for the whole
    match, and ``start_ms`` to answer ``start``."""

    start_ms: int = 5000
    move_ms: int = 1000
    bank_ms: int = 10000

    def __post_init__(self) -> None:
        for name in ("start_ms", "move_ms", "bank_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if self.move_ms == 0 and self.bank_ms == 0:
            raise ValueError("move_ms and bank_ms cannot both be 0")

    @property
    def worst_case_ms(self) -> int:
        """The longest the start and one decision may take under this control: the answer to
        ``start``, then one decision spending its move time and the whole bank."""
        return self.start_ms + self.move_ms + self.bank_ms

    def check_fits(self, limit_s: float) -> None:
        """A ``ValueError`` when this control's worst case cannot fit a match time limit of
        ``limit_s``: such a match could only end at its limit, mid-decision (the referee cuts
        every wait there, arena/match_clock.py). The one rule for every place a time control is
        set against a limit (a competition's settings, a new match)."""
        if self.worst_case_ms > limit_s * 1000:
            raise ValueError(
                f"the time control's worst case (start_ms + move_ms + bank_ms = "
                f"{self.worst_case_ms} ms) does not fit the match time limit of {limit_s:g} s"
            )

    def to_json(self) -> dict[str, int]:
        return {"start_ms": self.start_ms, "move_ms": self.move_ms, "bank_ms": self.bank_ms}

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ContractError(f"time must be an object, got {data!r}")
        unknown = set(data) - {"start_ms", "move_ms", "bank_ms"}
        if unknown:
            raise ContractError(f"time has unknown keys {sorted(unknown)}")
        try:
            return cls(**{**DEFAULT_TIME_CONTROL.to_json(), **data})
        except ValueError as exc:
            raise ContractError(f"time: {exc}") from None


#: The time control of a match that names none (the referee's, the site's and the CLI's).
DEFAULT_TIME_CONTROL = TimeControl()

#: Faults that retire a seat (bot-protocol.md, "Faults"), unless a match's caller says otherwise.
FAULT_LIMIT = 3

#: How a seat's code is named: a game's built-in bot, or an uploaded version fetched by id.
BUILTIN_PREFIX = "builtin:"
VERSION_PREFIX = "version:"


def builtin_bot(name: str) -> str:
    """The seat's bot text of the game's built-in bot ``name`` (``builtin:NAME``)."""
    return f"{BUILTIN_PREFIX}{name}"


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in one seat.

    ``bot`` is ``builtin:NAME``, ``version:ID`` (an uploaded version, fetched by the worker and
    checked against ``sha256``) or, for local use only, a path. ``trusted`` is False for code of
    users other than the operator: such code only runs in a sandbox that is a security boundary,
    unless the worker's own configuration allows otherwise.

    An uploaded version also names its ``language`` (a key of ``sandbox.languages``) and, when
    the worker's check stored a build, the build's ``artifact_sha256``: the worker runs that
    build, verified against the hash, as built and in that language, and believes nothing its
    files say of themselves. A spec without them (from before they were sent) still plays: the
    language is then recognised from the files and the build found through the code fetcher.
    """

    bot: str
    sha256: str = ""
    trusted: bool = True
    language: str = ""
    artifact_sha256: str = ""

    @property
    def version_id(self) -> int | None:
        if self.bot.startswith(VERSION_PREFIX):
            return int(self.bot[len(VERSION_PREFIX) :])
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bot": self.bot, "sha256": self.sha256, "trusted": self.trusted}
        if self.language:
            out["language"] = self.language
        if self.artifact_sha256:
            out["artifact_sha256"] = self.artifact_sha256
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "seat") -> SeatSpec:
        if isinstance(data, str):  # the short form: just the bot
            data = {"bot": data}
        if not isinstance(data, Mapping):
            raise ContractError(f"{where} must be an object or a string, got {data!r}")
        bot = data.get("bot")
        if not isinstance(bot, str) or not bot.strip():
            raise ContractError(f"{where}: bot must be a non-empty string, got {bot!r}")
        if bot.startswith(VERSION_PREFIX):
            digits = bot[len(VERSION_PREFIX) :]
            if not (digits.isascii() and digits.isdigit()):
                raise ContractError(f"{where}: {bot!r} must be version:<number>")
            sha = data.get("sha256", "")
            if not (isinstance(sha, str) and _is_sha256(sha)):
                raise ContractError(f"{where}: an uploaded version needs its sha256")
        sha256 = data.get("sha256", "")
        if not isinstance(sha256, str):
            raise ContractError(f"{where}: sha256 must be a string")
        trusted = data.get("trusted", True)
        if not isinstance(trusted, bool):
            raise ContractError(f"{where}: trusted must be true or false, got {trusted!r}")
        language = data.get("language", "")
        if not (isinstance(language, str) and (not language or _LANGUAGE_KEY.fullmatch(language))):
            raise ContractError(f"{where}: language must be a language's key, got {language!r}")
        artifact = data.get("artifact_sha256", "")
        if not (isinstance(artifact, str) and (not artifact or _is_sha256(artifact))):
            raise ContractError(f"{where}: artifact_sha256 must be a hex SHA-256, got {artifact!r}")
        return cls(
            bot=bot, sha256=sha256, trusted=trusted, language=language, artifact_sha256=artifact
        )


#: What a language's key looks like (the worker looks it up in ``sandbox.languages``).
_LANGUAGE_KEY = re.compile(r"[a-z][a-z0-9]{0,15}")


def _is_sha256(text: str) -> bool:
    return len(text) == 64 and _is_hex(text)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


_SEED_LIMIT = 1 << 64


@dataclass(frozen=True)
class MatchSpec:
    """Everything a worker needs to play one match (and nothing about how to run bots)."""

    game: str
    seats: tuple[SeatSpec, ...]
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    time: TimeControl = DEFAULT_TIME_CONTROL
    match_id: str = ""

    @property
    def bots(self) -> list[str]:
        return [s.bot for s in self.seats]

    @property
    def untrusted(self) -> bool:
        return any(not s.trusted for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "game": self.game,
            "seats": [s.to_json() for s in self.seats],
            "seed": self.seed,
            "options": dict(self.options),
            "time": self.time.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchSpec:
        """Read and check a spec; raises :class:`ContractError` naming the bad field."""
        if not isinstance(data, Mapping):
            raise ContractError(f"a match spec must be an object, got {type(data).__name__}")
        unknown = set(data) - {"match_id", "game", "seats", "seed", "options", "time"}
        if unknown:
            raise ContractError(f"match spec has unknown keys {sorted(unknown)}")
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise ContractError(f"game must be a non-empty string, got {game!r}")
        seats = data.get("seats")
        if not isinstance(seats, list) or not seats:
            raise ContractError("seats must be a non-empty list")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _SEED_LIMIT:
            raise ContractError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise ContractError(f"options must be an object, got {options!r}")
        match_id = data.get("match_id", "")
        if not isinstance(match_id, str):
            raise ContractError(f"match_id must be a string, got {match_id!r}")
        return cls(
            game=game,
            seats=tuple(SeatSpec.from_json(s, f"seat {i}") for i, s in enumerate(seats)),
            seed=seed,
            options=dict(options),
            time=TimeControl.from_json(data.get("time")),
            match_id=match_id,
        )


def check_finite(value: Any, where: str) -> float | int | None:
    """A score: a finite number or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ContractError(f"{where} must be a finite number or null, got {value!r}")
    return value
