"""Deleting an account (docs/permissions.md, "Deleting an account").

What others played against stays: the user's bots, their versions, matches, replays and ratings
are kept, reassigned to one tombstone user named ``deleted user`` and renamed ``bot-<id>``
(their names and descriptions were the person's words). What was the person's alone goes: the
uploaded code and builds (files and fields), the private logs of their seats and versions, their
place on the ladder, API tokens, sessions and log-in records, then the user row itself, so that
the name is free for a new account. The settings page and the admin both come here.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog  # type: ignore[import-untyped]
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import SYSTEM_USERNAME
from competitions.leagues.selectors import table_stamp_key
from competitions.models import LeagueStanding, Tournament, TournamentEntry
from competitions.tournaments.results.data import names_stamp_key
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import CharField, Q, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone
from foundation import page_cache, stamps
from ladder.models import LadderEntry
from ladder.selectors import history_stamp_key
from matches.models import MatchSeat
from ratings.selectors import board_stamp_key

log = logging.getLogger(__name__)

#: The owner every deleted user's bots pass to. The space keeps it out of every sign-up form
#: (Django's user names are letters, digits and @.+-_), so nobody can register it.
DELETED_USERNAME = "deleted user"

#: What a removed version says about itself on its owner's pages and in the admin.
REMOVED_REASON = "Removed: its owner deleted their account."


class AccountNotDeletable(Exception):
    """The platform's own accounts (the built-in bots' owner, the tombstone) stay."""


@dataclass(frozen=True)
class DeletionSummary:
    """What deleting an account keeps and removes, counted in a fixed number of queries."""

    bots: int
    versions: int
    code_files: int
    seat_logs: int
    tournaments: int

    @classmethod
    def of(cls, user: Any) -> DeletionSummary:
        versions = BotVersion.objects.filter(bot__owner=user)
        return cls(
            bots=Bot.objects.filter(owner=user).count(),
            versions=versions.count(),
            code_files=versions.filter(~Q(code="") | ~Q(artifact="")).count(),
            seat_logs=MatchSeat.objects.filter(bot_version__bot__owner=user).count(),
            tournaments=Tournament.objects.filter(organiser=user).count(),
        )


def deleted_user() -> Any:
    """The tombstone owner (made once, inactive, without a usable password)."""
    user, created = get_user_model().objects.get_or_create(
        username=DELETED_USERNAME, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def deletable(user: Any) -> bool:
    return user.get_username() not in (SYSTEM_USERNAME, DELETED_USERNAME)


def delete_account(user: Any) -> DeletionSummary:
    """Delete ``user`` as described above, in one transaction; the files go once it commits
    (a rollback keeps them). Returns what it kept and removed."""
    if not deletable(user):
        raise AccountNotDeletable(f"The account {user.get_username()!r} belongs to the site.")
    summary = DeletionSummary.of(user)
    with transaction.atomic():
        tombstone = deleted_user()
        bot_ids = list(Bot.objects.filter(owner=user).values_list("pk", flat=True))
        _forget_private_data(user)
        Bot.objects.filter(pk__in=bot_ids).update(
            owner=tombstone,
            name=Concat(Value("bot-"), Cast("pk", CharField())),
            description="",
            pinned_version=None,
        )
        Tournament.objects.filter(organiser=user).update(organiser=tombstone)
        user.play_seats.update(user=tombstone)  # play sits above accounts: no import
        _revoke_sessions(user.pk)
        username = user.get_username()
        for record in (AccessAttempt, AccessFailureLog, AccessLog):
            record.objects.filter(username=username).delete()
        user.delete()  # tokens, group memberships and admin log entries go with the row
        stale = _cached_views_of(bot_ids)
        transaction.on_commit(lambda: remove_bot_files(bot_ids))
        transaction.on_commit(lambda: _bump_all(stale))
    return summary


def _bump_all(keys: list[str]) -> None:
    for key in keys:
        stamps.bump(key)
    page_cache.retire_all()  # anonymous pages kept whole may name the bots or their owner


def _cached_views_of(bot_ids: list[int]) -> list[str]:
    """The stamps of the cached parts that name these bots or their owner: their pages, their
    games' leaderboards, the league tables they stand in and the results of the tournaments
    they entered (drawn afresh after the commit)."""
    games = Bot.objects.filter(pk__in=bot_ids).values_list("game_id", flat=True).distinct()
    leagues = (
        LeagueStanding.objects.filter(bot_id__in=bot_ids)
        .values_list("league_id", flat=True)
        .distinct()
    )
    tournaments = (
        TournamentEntry.objects.filter(version__bot_id__in=bot_ids)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    return (
        [history_stamp_key(b) for b in bot_ids]
        + [board_stamp_key(g) for g in games]
        + [table_stamp_key(lg) for lg in leagues]
        + [names_stamp_key(t) for t in tournaments]
    )


def _forget_private_data(user: Any) -> None:
    """Private logs and code fields of the user's seats and versions; their bots leave the
    ladder and never play again (no version stays active, so no entry is made again)."""
    MatchSeat.objects.filter(bot_version__bot__owner=user).exclude(
        stderr="", stderr_marks=[]
    ).update(stderr="", stderr_marks=[])
    BotVersion.objects.filter(bot__owner=user).update(
        code="",
        artifact="",
        artifact_sha256="",
        failure_stderr="",
        status=VersionStatus.FAILED,
        status_reason=REMOVED_REASON,
        status_changed_at=timezone.now(),
    )
    LadderEntry.objects.filter(bot__owner=user).delete()


def _revoke_sessions(user_id: int) -> None:
    """Delete the stored sessions that log this user in (the database's session store: a
    session names its user only inside its encoded data, so the live ones are read)."""
    doomed = [
        s.session_key
        for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator(chunk_size=500)
        if str(s.get_decoded().get("_auth_user_id")) == str(user_id)
    ]
    Session.objects.filter(session_key__in=doomed).delete()


def remove_bot_files(bot_ids: list[int]) -> None:
    """Every stored file of these bots (uploads and builds live under ``bots/<id>/`` in the
    storage, whatever the backend); a file that cannot be removed is logged, never raised."""
    for bot_id in bot_ids:
        folder = f"bots/{bot_id}"
        try:
            _, files = default_storage.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in files:
            try:
                default_storage.delete(f"{folder}/{name}")
            except OSError:
                log.exception("could not remove %s/%s of a deleted account", folder, name)
        _remove_empty_folder(folder)


def _remove_empty_folder(folder: str) -> None:
    try:
        path = default_storage.path(folder)
    except NotImplementedError:  # object storage has no folders
        return
    with contextlib.suppress(OSError):  # not empty (a file kept by an error) or gone
        os.rmdir(path)
