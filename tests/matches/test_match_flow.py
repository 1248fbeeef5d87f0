"""A real match of built-in bots through the platform's task (eager mode), its recording and
rating; error outcomes are stored and never rated."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from matches.models import ErrorKind, Match, MatchStatus
from matches.services import create_match, dispatch_match, match_spec, record_outcome
from ratings.models import Rating, RatingChange


def test_builtin_match_runs_through_celery_and_is_rated(trnd, three_versions) -> None:
    match = create_match(game=trnd, versions=three_versions, seed=3)
    assert match.status == MatchStatus.QUEUED
    match = dispatch_match(match)

    assert match.status == MatchStatus.FINISHED, match.error
    assert match.task_id
    # The worker claimed it (running) before playing: one attempt, its host recorded.
    assert match.started_at and match.finished_at >= match.started_at
    assert match.attempts == 1 and match.worker
    assert match.duration_ms is not None
    assert match.replay["format"] == "meeple-arena-replay"
    assert match.replay["decisions"], "the replay holds the decisions"
    seats = list(match.seats.order_by("seat"))
    assert sorted(s.rank for s in seats)[0] == 1
    assert [s.score for s in seats] == match.result["scores"]
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert all(s.status == "ok" and changes[s.seat].elo_before == 1500.0 for s in seats)
    assert sum(c.elo_delta for c in changes.values()) == pytest.approx(0, abs=1e-9)
    winner = min(seats, key=lambda s: s.rank)
    assert changes[winner.seat].elo_after > changes[winner.seat].elo_before
    ratings = Rating.objects.filter(game=trnd)
    assert ratings.count() == 3
    assert all(r.matches_played == 1 and r.provisional for r in ratings)
    assert Rating.objects.get(bot=winner.bot_version.bot).mu > 25.0


def test_spec_names_code_by_version_and_hash(trnd, builtin_versions, user_bot) -> None:
    """The worker gets code by version id and content hash, never a path on the web host, and
    no sandbox choice (the worker decides how bots run)."""
    from bots.services import upload_version

    from arena.contract import MatchSpec
    from tests.site_fixtures import BOT_SOURCE

    v = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    match = create_match(
        game=trnd, versions=[*builtin_versions, v], seed=7, options={"target_score": 50}
    )
    spec = match_spec(match)
    assert spec.game == "trnd" and spec.seed == 7
    assert spec.bots == ["builtin:random", "builtin:greedy", f"version:{v.pk}"]
    assert spec.seats[2].sha256 == v.sha256 and not spec.seats[2].trusted
    assert spec.match_id == str(match.pk)
    assert spec.options == {"target_score": 50}
    wire = spec.to_json()
    assert "sandbox" not in json.dumps(wire) and "/" not in json.dumps(wire["seats"])
    assert MatchSpec.from_json(json.loads(json.dumps(wire))) == spec


def test_spec_names_the_language_and_the_build(trnd, builtin_versions, user_bot) -> None:
    """The version's row says its language and its build's hash: the worker believes them,
    not the files (a build cannot say it is another language, nor that it is built)."""
    from bots.models import BotVersion
    from bots.services import upload_version

    from tests.site_fixtures import BOT_SOURCE

    v = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    match = create_match(game=trnd, versions=[*builtin_versions, v], seed=7)
    assert match_spec(match).seats[2].language == "python"
    assert match_spec(match).seats[2].artifact_sha256 == ""
    BotVersion.objects.filter(pk=v.pk).update(language="cpp", artifact_sha256="cd" * 32)
    seat = match_spec(match).seats[2]
    assert (seat.language, seat.artifact_sha256) == ("cpp", "cd" * 32)
    assert seat.to_json()["artifact_sha256"] == "cd" * 32
    assert match_spec(match).seats[0].language == ""  # a built-in bot is the game's own code


def test_error_outcome_is_stored_and_not_rated(trnd, three_versions) -> None:
    match = create_match(game=trnd, versions=three_versions)
    record_outcome(
        match.pk,
        {
            "status": "error",
            "error": "sandbox could not start",
            "seats": [],
            "result": None,
            "replay": None,
        },
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.ERROR
    # The referee's own text is the staff's (logged); the public error is a fixed sentence.
    assert "sandbox could not start" not in match.error and "platform error" in match.error
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    # A late duplicate delivery leaves the match as it is.
    record_outcome(match.pk, {"status": "finished", "seats": []})
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ERROR


def test_malformed_outcome_becomes_error(trnd, builtin_versions) -> None:
    match = create_match(game=trnd, versions=[*builtin_versions, builtin_versions[0]])
    record_outcome(match.pk, {"status": "finished", "seats": [{"rank": 1}], "result": {}})
    match.refresh_from_db()
    assert match.status == MatchStatus.ERROR and "platform error" in match.error
    assert "1 seats for 3" not in match.error  # an exception's text stays in the log


def test_dispatch_of_refused_match_marks_error(trnd, three_versions) -> None:
    # Options the engine refuses (changed after creation): the referee's task returns an
    # error outcome, recorded as such and never rated.
    match = create_match(game=trnd, versions=three_versions)
    Match.objects.filter(pk=match.pk).update(options={"no_such_option": 1})
    match.refresh_from_db()
    match = dispatch_match(match)
    assert match.status == MatchStatus.ERROR
    assert "no_such_option" in match.error
    assert not Rating.objects.exists()


@pytest.mark.parametrize(
    ("count", "options", "message"),
    [(2, {}, "3–5 players, not 2"), (3, {"bogus": 1}, "unknown option")],
)
def test_create_match_validates(trnd, builtin_versions, count, options, message) -> None:
    versions = (builtin_versions * 3)[:count]
    with pytest.raises(ValidationError, match=message):
        create_match(game=trnd, versions=versions, options=options)


def test_one_bot_in_two_seats_is_recorded_but_not_rated(trnd, builtin_versions) -> None:
    match = create_match(game=trnd, versions=[*builtin_versions, builtin_versions[0]], seed=1)
    match = dispatch_match(match)
    assert match.status == MatchStatus.FINISHED
    assert not Rating.objects.exists()


CRASHING_BOT = b"import sys\nprint('secret debug line', file=sys.stderr, flush=True)\nsys.exit(3)\n"


@pytest.mark.parametrize("backend", ["process", "docker"])
def test_uploaded_bots_play_in_the_sandbox(
    backend, trnd, builtin_versions, user, other_user, settings, client, request
) -> None:
    """Uploaded code runs through the sandbox: a working .zip bot and one that crashes. In
    Docker as in production; in the process sandbox only because the organiser allows it."""
    from bots.services import create_bot, upload_version

    from tests.site_fixtures import BOT_SOURCE, make_zip

    if backend == "docker":
        request.getfixturevalue("docker_client")
    settings.ARENA_SANDBOX = backend
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = backend == "process"
    good = upload_version(
        bot=create_bot(owner=user, game=trnd, name="zipbot"),
        filename="bot.zip",
        data=make_zip({"main.py": BOT_SOURCE}),
    )
    bad = upload_version(
        bot=create_bot(owner=user, game=trnd, name="crasher"), filename="main.py", data=CRASHING_BOT
    )
    match = dispatch_match(
        create_match(
            game=trnd,
            versions=[good, bad, builtin_versions[1]],
            seed=4,
            time_control={"move_ms": 2000},
        )
    )
    assert match.status == MatchStatus.FINISHED, match.error
    seats = list(match.seats.order_by("seat"))
    assert seats[0].status in ("ok", "illegal")
    assert seats[1].status == "crashed" and seats[1].faults
    assert seats[1].rank == 3  # a retired seat ranks below every seat still playing
    assert RatingChange.objects.get(match=match, seat=1).elo_delta < 0
    # stderr is private: kept on the seat, out of the public replay; no server paths either.
    assert "secret debug line" in seats[1].stderr
    text = json.dumps(match.replay)
    assert "secret debug line" not in text and str(settings.MEDIA_ROOT) not in text
    assert match.replay["seats"][1]["bot"] == f"version:{bad.pk}"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "secret debug line" not in page
    client.force_login(user)
    assert "secret debug line" in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(other_user)
    assert "secret debug line" not in client.get(f"/matches/{match.pk}/").content.decode()


def test_uploads_refused_by_the_process_sandbox_unless_allowed(
    trnd, builtin_versions, user, settings
) -> None:
    """The process sandbox is no security boundary: other users' uploads make the match a
    system error (never rated) with a message that says what to do."""
    from bots.services import create_bot, upload_version

    from tests.site_fixtures import BOT_SOURCE

    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = False
    upload = upload_version(
        bot=create_bot(owner=user, game=trnd, name="stranger"), filename="main.py", data=BOT_SOURCE
    )
    match = dispatch_match(create_match(game=trnd, versions=[upload, *builtin_versions], seed=2))
    assert match.status == MatchStatus.ERROR and match.error_kind == ErrorKind.NO_BOUNDARY
    assert "not a security boundary" in match.error and "Docker" in match.error
    assert not Rating.objects.exists()
