"""Entries of a draft tournament: users enter one of their own qualified bot versions, swap it
for another of theirs and withdraw, inside the entry window and as the entry policy allows;
the tournament's managers add any qualified version of the game (built-ins too) and remove
any entry. Every change runs under a lock of the tournament's row, so the caps hold when
entries arrive at once from several processes.

A user's entry is one of their bots: entering another version of a bot already entered
replaces that version (a swap); with one entry per user, entering another bot replaces the
entered one too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from audiences.selectors import role_of
from bots.models import BotVersion, VersionStatus
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from foundation import stamps

from competitions.models import EntryPolicy, Tournament, TournamentStatus, Visibility
from competitions.permissions import may_manage


def qualified_versions(user: Any, t: Tournament) -> QuerySet[BotVersion]:
    """``user``'s versions that may enter ``t``: of its game, qualified and not held."""
    if not user.is_authenticated:
        return BotVersion.objects.none()
    return (
        BotVersion.objects.filter(
            bot__owner=user,
            bot__game_id=t.game_id,
            status=VersionStatus.ACTIVE,
            held_at__isnull=True,
        )
        .select_related("bot")
        .order_by("bot__name", "-number")
    )


def entries_of(user: Any, t: Tournament) -> list[BotVersion]:
    """``user``'s entered versions."""
    if not user.is_authenticated:
        return []
    return list(t.entrants.filter(bot__owner=user).select_related("bot").order_by("bot__name"))


def window_state(t: Tournament, now: Any = None) -> str:
    """ "open", "not_yet" or "closed" (null bounds are open on that side)."""
    now = now or timezone.now()
    if t.entries_open_at is not None and now < t.entries_open_at:
        return "not_yet"
    if t.entries_close_at is not None and now >= t.entries_close_at:
        return "closed"
    return "open"


def may_enter(user: Any, t: Tournament) -> bool:
    """Whether ``user`` may enter (or swap, or withdraw) a bot of their own now."""
    try:
        _check_may_enter(user, t)
    except ValidationError:
        return False
    return True


def enter(
    user: Any, t: Tournament, version: BotVersion, *, replacing: BotVersion | None = None
) -> None:
    """``user`` enters ``version`` (theirs): a new entry, or a swap for ``replacing`` (one of
    their entries), for the entered version of the same bot, or, with one entry per user, for
    their only entry."""
    with _locked(t) as locked:
        _check_may_enter(user, locked)
        _check_version(locked, version)
        if version.bot.owner_id != user.pk:
            raise ValidationError(f"{version.label} is not one of your bots.")
        mine = list(locked.entrants.filter(bot__owner=user).select_related("bot"))
        if any(v.pk == version.pk for v in mine):
            raise ValidationError(f"{version.label} is entered already.")
        old = _replaced(mine, version, replacing, locked.entries_per_user)
        if old is not None:
            locked.entrants.remove(old)
        else:
            _check_room(locked)
        locked.entrants.add(version)


def withdraw(user: Any, t: Tournament, version: BotVersion) -> None:
    """``user`` takes their entry ``version`` out (inside the window)."""
    with _locked(t) as locked:
        _check_may_enter(user, locked)
        if version.bot.owner_id != user.pk:
            raise ValidationError(f"{version.label} is not one of your bots.")
        if not locked.entrants.filter(pk=version.pk).exists():
            raise ValidationError(f"{version.label} is not entered.")
        locked.entrants.remove(version)


def add_entrant(manager: Any, t: Tournament, version: BotVersion) -> None:
    """A manager adds any qualified version of the game (a built-in, anyone's bot), whatever
    the window and the policy; the entry cap still holds."""
    with _locked(t) as locked:
        _check_manager(manager, locked)
        _check_version(locked, version)
        if locked.entrants.filter(pk=version.pk).exists():
            raise ValidationError(f"{version.label} is entered already.")
        _check_room(locked)
        locked.entrants.add(version)


def remove_entrant(manager: Any, t: Tournament, version: BotVersion) -> None:
    """A manager removes any entry while the tournament is a draft."""
    with _locked(t) as locked:
        _check_manager(manager, locked)
        if not locked.entrants.filter(pk=version.pk).exists():
            raise ValidationError(f"{version.label} is not entered.")
        locked.entrants.remove(version)


@contextmanager
def _locked(t: Tournament) -> Iterator[Tournament]:
    """The tournament's row, locked (only its own: never the game's) for one short
    transaction, and checked to be a draft still."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update(of=("self",)).get(pk=t.pk)
        if locked.status != TournamentStatus.DRAFT:
            raise ValidationError(f"{locked.name} has started: its entries are final.")
        yield locked
        # A swap keeps the count: the page's cached list of entrants follows this number.
        transaction.on_commit(partial(stamps.bump, entries_stamp_key(t.pk)))


def entries_stamp_key(tournament_id: int) -> str:
    """The ``foundation.stamps`` number of a draft's entrants, bumped after each change."""
    return f"tournament-entries:{tournament_id}"


def _check_manager(user: Any, t: Tournament) -> None:
    if not may_manage(user, t):
        raise ValidationError("Only the tournament's organisers add or remove entrants.")


def _check_may_enter(user: Any, t: Tournament) -> None:
    if not user.is_authenticated:
        raise ValidationError("Log in to enter a bot.")
    if t.status != TournamentStatus.DRAFT:
        raise ValidationError(f"{t.name} has started: its entries are final.")
    managing = may_manage(user, t)
    if t.entry_policy == EntryPolicy.ORGANISER:
        raise ValidationError("The organisers choose this tournament's entrants.")
    members_only = t.entry_policy == EntryPolicy.MEMBERS or t.visibility == Visibility.PRIVATE
    if members_only and not (managing or role_of(user, t.audience_id) is not None):
        raise ValidationError("Only the tournament's members may enter; ask for an invitation.")
    state = window_state(t)
    if state == "not_yet":
        raise ValidationError("Entries are not open yet.")
    if state == "closed":
        raise ValidationError("Entries are closed.")


def _check_version(t: Tournament, version: BotVersion) -> None:
    if version.bot.game_id != t.game_id:
        raise ValidationError(f"{version.label} is not a bot for this tournament's game.")
    if version.status != VersionStatus.ACTIVE or version.held_at is not None:
        raise ValidationError(f"{version.label} has not qualified: only active versions enter.")


def _check_room(t: Tournament) -> None:
    if t.max_entries is not None and t.entrants.count() >= t.max_entries:
        raise ValidationError(f"The tournament is full ({t.max_entries} entries).")


def _replaced(
    mine: list[BotVersion], version: BotVersion, replacing: BotVersion | None, per_user: int
) -> BotVersion | None:
    """The entry ``version`` replaces (None: it is a new one), or a ValidationError when the
    user has no room left."""
    same_bot = next((v for v in mine if v.bot_id == version.bot_id), None)
    if replacing is not None:
        old = next((v for v in mine if v.pk == replacing.pk), None)
        if old is None:
            raise ValidationError(f"{replacing.label} is not one of your entries.")
        if same_bot is not None and same_bot.pk != old.pk:
            raise ValidationError(f"{same_bot.label} is entered: swap that one instead.")
        return old
    if same_bot is not None:
        return same_bot
    if len(mine) < per_user:
        return None
    if per_user == 1:
        return mine[0]
    raise ValidationError(
        f"You have entered {len(mine)} bots, the most allowed: swap or withdraw one."
    )
