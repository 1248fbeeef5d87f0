"""The living ladder, inline (no broker): qualification, placement, suspension, challenges.

Matches are real: the referee plays them through the process sandbox (the operator allows
it here, as a trusted classroom would), inline in the test as the embedded runner would."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from bots.models import Bot, VersionStatus
from bots.services import DuplicateUpload, create_bot, pin_version, upload_version
from django.core.exceptions import PermissionDenied, ValidationError
from ladder import qualification, services
from ladder.challenges import create_challenge
from ladder.models import LadderEntry, LadderMatch
from matches.models import ErrorKind, Match, MatchKind, MatchStatus
from ratings.models import RatingChange

from tests.site_fixtures import BOT_SOURCE

CRASH_SOURCE = b"""import sys
sys.stderr.write("secret-trace: boom on line one\\n")
raise SystemExit(3)
"""


def flaky_source(after_match: int) -> bytes:
    """Plays like BOT_SOURCE in matches up to id ``after_match``, crashes in later ones (the
    sandbox shows a bot nothing of the host, so the match id is what tells them apart)."""
    return f"""import json, sys
AFTER = {after_match}
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        if int(msg["match_id"]) > AFTER:
            sys.stderr.write("crashing on purpose\\n")
            raise SystemExit(1)
        print(json.dumps({{"type": "ready"}}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({{"action_index": 0, "turn": msg["turn"]}}), flush=True)
    else:
        break
""".encode()


@pytest.fixture(autouse=True)
def _ladder_settings(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.ARENA_LADDER_BUDGET = 2
    settings.ARENA_LADDER_PLACEMENT = 2
    settings.ARENA_LADDER_SUSPEND_AFTER = 2


def test_upload_qualifies_then_plays_placement(
    user_bot: Bot, builtin_versions: Any, inline: Callable[..., Any]
) -> None:
    # Sent on commit, the qualification task makes and plays the match.
    version = inline(upload_version, bot=user_bot, filename="main.py", data=BOT_SOURCE)
    qual = Match.objects.get(ladder__version=version)
    assert qual.ladder.kind == qual.kind == MatchKind.QUALIFICATION and not qual.rated
    assert qual.status == MatchStatus.FINISHED
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE, version.status_reason
    entry = LadderEntry.objects.get(bot=user_bot)
    assert entry.placement_owed == 2
    # The next ticks serve the newcomer first, until its placement is done.
    for _ in range(4):
        report = inline(services.tick, user_bot.game, rng=random.Random(3))
        made = Match.objects.filter(pk__in=report.ladder_matches)
        assert all(m.kind == MatchKind.LADDER and m.rated for m in made)
        seated = {s.bot_version.bot_id for m in made for s in m.seats.select_related("bot_version")}
        if entry.placement_owed:
            assert user_bot.pk in seated
        entry.refresh_from_db()
    assert entry.placement_owed == 0
    assert entry.ladder_matches >= 2
    assert LadderMatch.objects.filter(kind=MatchKind.LADDER, game=user_bot.game).count() >= 2


def test_crash_on_first_line_fails_with_private_stderr(
    user_bot: Bot, builtin_versions, rounds
) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=CRASH_SOURCE)
    assert version.status == VersionStatus.CHECKING
    # The tick sends checks never sent and qualifies uploads whose task was lost, too.
    rounds(user_bot.game, 2)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert "Crashed" in version.status_reason
    assert "secret-trace: boom" in version.failure_stderr
    assert not LadderEntry.objects.filter(bot=user_bot).exists()


def test_waiting_for_a_sandbox(user_bot: Bot, builtin_versions, settings, rounds) -> None:
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = False
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    rounds(user_bot.game, 1)
    version.refresh_from_db()
    assert version.status == VersionStatus.WAITING_SANDBOX
    assert "ARENA_ALLOW_UNSAFE_SANDBOX" in version.status_reason
    assert not Match.objects.filter(ladder__version=version).exists()
    # The operator allows it: the next tick qualifies it.
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    rounds(user_bot.game, 1)
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE


def test_identical_reupload_makes_no_version(user_bot: Bot) -> None:
    v1 = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    with pytest.raises(DuplicateUpload, match="identical to v1"):
        upload_version(bot=user_bot, filename="other.py", data=BOT_SOURCE)
    assert list(user_bot.versions.all()) == [v1]


def test_faults_suspend_and_a_new_version_lifts(
    user_bot: Bot, builtin_versions, rounds, inline
) -> None:
    # Its qualification is the next match made; it crashes in every one after that.
    # The id the next match will get: a marker row takes the sequence's current value (on
    # PostgreSQL, tests rolled back earlier have used ids that max(pk) no longer shows).
    marker = Match.objects.create(game=user_bot.game, status=MatchStatus.ERROR, error="marker")
    after = marker.pk + 1
    v1 = inline(upload_version, bot=user_bot, filename="main.py", data=flaky_source(after))
    v1.refresh_from_db()
    assert v1.status == VersionStatus.ACTIVE, v1.status_reason
    entry = LadderEntry.objects.get(bot=user_bot)
    for _ in range(8):
        inline(services.tick, user_bot.game, rng=random.Random(4))
        entry.refresh_from_db()
        if entry.is_suspended:
            break
    assert entry.is_suspended and entry.fault_streak == 2
    assert "Crashed" in entry.suspended_reason or "crashed" in entry.suspended_reason
    # Suspended: no more ladder matches for it.
    before = Match.objects.filter(seats__bot_version__bot=user_bot).count()
    rounds(user_bot.game, 2)
    assert Match.objects.filter(seats__bot_version__bot=user_bot).count() == before
    # A new version qualifies and lifts the suspension.
    v2 = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE + b"# v2\n")
    rounds(user_bot.game, 2)
    v2.refresh_from_db()
    entry.refresh_from_db()
    assert v2.status == VersionStatus.ACTIVE
    assert not entry.is_suspended and entry.fault_streak == 0


def test_pinning_and_playing_version(
    user_bot: Bot, builtin_versions, user, other_user, rounds
) -> None:
    v1 = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    rounds(user_bot.game, 1)
    v2 = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE + b"#2\n")
    rounds(user_bot.game, 1)
    user_bot.refresh_from_db()
    assert user_bot.playing_version() == v2
    pin_version(bot=user_bot, by=user, version=v1)
    assert user_bot.playing_version() == v1
    with pytest.raises(PermissionDenied, match="owner"):
        pin_version(bot=user_bot, by=other_user, version=v2)
    v3 = upload_version(bot=user_bot, filename="main.py", data=CRASH_SOURCE)
    with pytest.raises(ValidationError, match="only a qualified"):
        pin_version(bot=user_bot, by=user, version=v3)


def test_challenge_limit_holds(user, user_bot, builtin_versions, settings, rounds, inline) -> None:
    settings.ARENA_CHALLENGES_PER_DAY = 2
    upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    rounds(user_bot.game, 1)
    targets = [v.bot for v in builtin_versions]  # TRND seats 3 to 5
    for _ in range(2):
        match = inline(create_challenge, user=user, bot=user_bot, opponents=targets)
        assert match.ladder.kind == match.kind == MatchKind.CHALLENGE and not match.rated
    with pytest.raises(ValidationError, match="used your 2 challenges"):
        create_challenge(user=user, bot=user_bot, opponents=targets)
    challenges = Match.objects.filter(kind=MatchKind.CHALLENGE)
    assert [m.status for m in challenges] == [MatchStatus.FINISHED] * 2
    # Friendly: no rating moved.
    assert not RatingChange.objects.filter(match__in=challenges).exists()


def test_challenge_checks(user, other_user, user_bot, builtin_versions, trnd) -> None:
    theirs = create_bot(owner=other_user, game=trnd, name="theirs")
    with pytest.raises(ValidationError, match="own"):
        create_challenge(user=user, bot=theirs, opponents=[user_bot])
    targets = [v.bot for v in builtin_versions]
    with pytest.raises(ValidationError, match="3–5 players"):
        create_challenge(user=user, bot=user_bot, opponents=targets[:1])
    with pytest.raises(ValidationError, match="qualified"):
        create_challenge(user=user, bot=user_bot, opponents=targets)
    with pytest.raises(ValidationError, match="itself"):
        create_challenge(user=user, bot=user_bot, opponents=[user_bot])


def test_a_worker_refusing_a_stranger_makes_the_version_wait(
    user_bot: Bot, builtin_versions, settings, monkeypatch, rounds
) -> None:
    """With a broker the site cannot see the workers' sandbox: the worker's refusal (an
    ``error`` match, never the bot's fault) puts the version in waiting for a sandbox."""
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = False
    monkeypatch.setattr(qualification, "local_worker", lambda: False)
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    rounds(user_bot.game, 1)
    version.refresh_from_db()
    qual = Match.objects.get(ladder__version=version)
    assert qual.status == MatchStatus.ERROR and qual.error_kind == ErrorKind.NO_BOUNDARY
    assert version.status == VersionStatus.WAITING_SANDBOX
    assert "security boundary" in version.status_reason
    assert not LadderEntry.objects.filter(bot=user_bot).exists()


def test_platform_errors_never_count(user_bot: Bot, builtin_versions, rounds) -> None:
    """A worker lost (``error``) neither fails a qualification nor feeds a fault streak."""
    from bots.check_sweeper import sweep_checks
    from matches.services import mark_error

    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    sweep_checks()  # its check (never sent: no commit in this test's transaction)
    services.tick(user_bot.game)  # made, not sent (no commit in this test's transaction)
    qual = Match.objects.get(ladder__version=version)
    mark_error(qual.pk, "worker lost", ErrorKind.WORKER)
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED and "platform" in version.status_reason
    rounds(user_bot.game, 1)  # tried again, and it passes
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE
    entry = LadderEntry.objects.get(bot=user_bot)
    entry.fault_streak = 1  # one more fault would suspend (ARENA_LADDER_SUSPEND_AFTER = 2)
    entry.save()
    report = services.tick(user_bot.game)
    for match_id in report.ladder_matches:
        mark_error(match_id, "worker lost", ErrorKind.WORKER)
    entry.refresh_from_db()
    assert report.ladder_matches and entry.fault_streak == 1 and not entry.is_suspended


@pytest.mark.django_db(transaction=True)
def test_a_qualification_locks_its_version_not_the_bot(
    user_bot: Bot, builtin_versions: Any, monkeypatch: Any
) -> None:
    """Another session holds the bot's row (its owner saving an edit) while a qualification
    is recorded and while one is made: neither waits for it (they lock the version's row
    only, ``of=("self",)``; with the bot joined under ``FOR UPDATE`` they waited)."""
    import psycopg
    from django.db import connection
    from matches.services import match_spec, record_outcome

    from arena.tasks import play
    from tests.conftest import missing_service

    if connection.vendor != "postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    from ladder import receivers

    # The upload's qualification is sent by name (ladder.receivers): held, made below under
    # the lock.
    monkeypatch.setattr(receivers, "send_by_name", lambda name, args: True)
    monkeypatch.setattr(qualification, "send_on_commit", lambda match: None)  # made, not played yet
    s = connection.settings_dict
    blocker = psycopg.connect(
        host=s["HOST"], port=s["PORT"], user=s["USER"], password=s["PASSWORD"], dbname=s["NAME"]
    )
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    try:
        with connection.cursor() as cur:
            cur.execute("SET lock_timeout = '3s'")  # a wait on the bot's row fails the test
        with blocker.cursor() as cur:
            # the owner's edit of the bot, not yet committed
            cur.execute("UPDATE bots_bot SET description = 'mine' WHERE id = %s", [user_bot.pk])
        version.refresh_from_db()
        assert version.status == VersionStatus.UPLOADED  # checked
        match = qualification.start_qualification(version)
        assert match is not None
        spec = match_spec(match)
        outcome = play(spec, sandbox="process", allow_unsafe=True).to_json(replay=True)
        record_outcome(match.pk, outcome)
    finally:
        blocker.rollback()
        blocker.close()
        with connection.cursor() as cur:
            cur.execute("RESET lock_timeout")
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE, version.status_reason
