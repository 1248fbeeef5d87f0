"""The match contract: specs and outcomes round-trip through JSON, and malformed ones are
refused with an error naming what is wrong (the platform then marks the match error)."""

from __future__ import annotations

import json

import pytest

from arena.contract import (
    DEFAULT_TIME_CONTROL,
    ContractError,
    ErrorKind,
    MatchSpec,
    MatchStatus,
    SeatSpec,
    SeatStatus,
    TimeControl,
)
from arena.outcome import MatchOutcome
from arena.referee import run_match

SHA = "ab" * 32


def test_spec_round_trips_through_json() -> None:
    spec = MatchSpec(
        game="trnd",
        seats=(
            SeatSpec("builtin:greedy"),
            SeatSpec("version:12", sha256=SHA, trusted=False),
            SeatSpec("version:13", sha256=SHA, language="cpp", artifact_sha256="cd" * 32),
            SeatSpec("builtin:random"),
        ),
        seed=2**64 - 1,
        options={"target_score": 40},
        time=TimeControl(start_ms=1, move_ms=2, bank_ms=3),
        match_id="7",
    )
    assert MatchSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec
    assert spec.untrusted and spec.seats[1].version_id == 12


def test_a_seat_from_before_languages_reads_as_it_did() -> None:
    """A spec from before seats named their language and build: the same seat, the new fields
    empty, and written back as it was (an old worker reads a new spec's seat too: it ignores
    the keys it does not know)."""
    old = {"bot": "version:12", "sha256": SHA, "trusted": False}
    seat = SeatSpec.from_json(old)
    assert seat == SeatSpec("version:12", sha256=SHA, trusted=False)
    assert seat.language == "" and seat.artifact_sha256 == ""
    assert seat.to_json() == old


def test_short_seats_and_default_time() -> None:
    spec = MatchSpec.from_json({"game": "trnd", "seats": ["builtin:random"] * 3})
    assert spec.time == DEFAULT_TIME_CONTROL and not spec.untrusted


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ([], "must be an object"),
        ({"game": "trnd"}, "seats must be a non-empty list"),
        ({"game": "", "seats": ["builtin:random"]}, "game must be a non-empty string"),
        ({"game": "trnd", "seats": [7]}, "seat 0 must be an object or a string"),
        ({"game": "trnd", "seats": ["builtin:a"], "seed": -1}, "seed must be an integer"),
        ({"game": "trnd", "seats": ["builtin:a"], "seed": True}, "seed must be an integer"),
        ({"game": "trnd", "seats": ["builtin:a"], "sandbox": "process"}, "unknown keys"),
        ({"game": "trnd", "seats": [{"bot": "version:x", "sha256": SHA}]}, "version:<number>"),
        ({"game": "trnd", "seats": [{"bot": "version:3"}]}, "needs its sha256"),
        (
            {"game": "trnd", "seats": [{"bot": "version:3", "sha256": SHA, "language": "C++"}]},
            "language must be a language's key",
        ),
        (
            {"game": "trnd", "seats": [{"bot": "version:3", "sha256": SHA, "artifact_sha256": 1}]},
            "artifact_sha256 must be a hex SHA-256",
        ),
        ({"game": "trnd", "seats": ["builtin:a"], "time": {"move_ms": -1}}, "time: move_ms"),
        ({"game": "trnd", "seats": ["builtin:a"], "time": {"hours": 1}}, "unknown keys"),
    ],
)
def test_malformed_specs_are_refused(spec: object, message: str) -> None:
    with pytest.raises(ContractError, match=message):
        MatchSpec.from_json(spec)


def test_a_real_outcome_round_trips() -> None:
    out = run_match("tri-area", ["builtin:random"] * 3, seed=5)
    wire = json.loads(json.dumps(out.to_json(replay=True)))
    back = MatchOutcome.from_json(wire, seats=3)
    assert back.status == MatchStatus.FINISHED
    assert [s.rank for s in back.seats] == [s.rank for s in out.seats]
    assert all(isinstance(s.status, SeatStatus) for s in back.seats)
    assert back.replay == out.replay


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        ("finished", "must be an object"),
        ({"status": "won"}, "status 'won' is unknown"),
        ({"status": "running"}, "finished or error"),
        ({"status": "finished", "seats": [{"bot": "a", "rank": 1}]}, "1 seats for 2"),
        ({"status": "finished", "seats": [{"bot": "a", "rank": 0}] * 2}, "rank must be"),
        (
            {"status": "finished", "seats": [{"bot": "a", "rank": 1, "status": "sulked"}] * 2},
            "seat 0: status must be one of",
        ),
        (
            {"status": "finished", "seats": [{"bot": "a", "rank": 1, "score": float("nan")}] * 2},
            "score must be a finite number",
        ),
        ({"status": "finished", "seats": [{"bot": "a", "rank": 1}] * 2, "result": []}, "result"),
    ],
)
def test_malformed_outcomes_are_refused(outcome: object, message: str) -> None:
    with pytest.raises(ContractError, match=message):
        MatchOutcome.from_json(outcome, seats=2)


def test_statuses_are_the_platform_choices() -> None:
    """The site's choices derive from the contract: one list, stated once."""
    assert [s.value for s in MatchStatus] == [
        "queued",
        "running",
        "recording",
        "finished",
        "error",
    ]
    assert {s for s in SeatStatus if s.is_fault} == set(SeatStatus) - {SeatStatus.OK}


# ------------------------------------------------------------------------------ error kinds


def test_an_error_outcome_carries_its_kind_both_ways() -> None:
    refused = MatchOutcome.refused(None, "match refused: nope", ErrorKind.NO_BOUNDARY)
    again = MatchOutcome.from_json(refused.to_json(replay=True))
    assert again.error_kind is ErrorKind.NO_BOUNDARY and again.error == "match refused: nope"
    assert MatchOutcome.refused(None, "match refused: x").error_kind is ErrorKind.REFUSED
    with pytest.raises(ContractError, match="error_kind 'melted' is unknown"):
        MatchOutcome.from_json({**refused.to_json(), "error_kind": "melted"})


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        ("match refused: the process sandbox is not a security boundary: ...", "no_boundary"),
        ("match refused: the bot's code could not be unpacked", "refused"),
        ("the match took over 900 s", "time_limit"),
        ("sandbox: docker is not reachable", "sandbox"),
        ("KeyError: 'deck'", "engine"),
    ],
)
def test_an_outcome_from_before_kinds_is_read_by_its_sentence(error: str, kind: str) -> None:
    """A worker from before error kinds told only in words: the one place they are read."""
    old = {"status": "error", "error": error, "seats": []}
    assert MatchOutcome.from_json(old).error_kind == kind


def test_a_finished_outcome_has_no_error_kind_and_the_referee_sets_one() -> None:
    played = run_match("trnd", ["builtin:random"] * 3, seed=1)
    assert played.ok and played.error_kind is None
    timed_out = run_match("trnd", ["builtin:random"] * 3, seed=1, deadline_s=0.0)
    assert timed_out.error_kind is ErrorKind.TIME_LIMIT
    assert ErrorKind.TIME_LIMIT.is_public and not ErrorKind.ENGINE.is_public
