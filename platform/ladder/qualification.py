"""Qualifying an uploaded version: a match against the built-in bots (once the worker's check
of its code passed); a clean one puts the bot on the ladder, a fault fails the version, a
platform error never counts against it. Strangers' code waits where the sandbox here is no
security boundary."""

from __future__ import annotations

import random

from bots.models import BotVersion, VersionStatus
from bots.services import (
    SYSTEM_USERNAME,
    ensure_builtin_bots,
    set_version_status,
    trusted_owner,
)
from catalog.models import Game
from django.conf import settings
from django.db import transaction
from matches.models import ErrorKind, Match, MatchKind, MatchSeat, MatchStatus
from matches.services import create_match

from arena.bot_code import boundary_refusal
from ladder.entries import join_ladder
from ladder.models import LadderMatch
from ladder.sending import local_worker, send_on_commit


def sandbox_refusal() -> str:
    """Why strangers' code cannot run here now ('' when it can). Asked only in the embedded
    mode, whose worker shares this machine and settings; elsewhere the worker's own refusal
    (an ``error`` match) tells."""
    if settings.ARENA_ALLOW_UNSAFE_SANDBOX:
        return ""
    return boundary_refusal(settings.ARENA_SANDBOX)


def _qualification_opponents(game: Game, seats: int) -> list[BotVersion]:
    builtins = list(
        BotVersion.objects.filter(
            bot__game=game,
            bot__is_builtin=True,
            bot__owner__username=SYSTEM_USERNAME,
            status=VersionStatus.ACTIVE,
        )
        .exclude(builtin_name="")
        .select_related("bot")
        .order_by("bot__name", "-number")
    )
    if not builtins:
        builtins = [b.latest_version() for b in ensure_builtin_bots(game)]  # type: ignore[misc]
    # Built-ins may repeat: a qualification match is unrated.
    return [builtins[i % len(builtins)] for i in range(seats)]


@transaction.atomic
def start_qualification(version: BotVersion, *, rng: random.Random | None = None) -> Match | None:
    """Create (and send) the qualification match of an ``uploaded`` or ``waiting_sandbox``
    version against the game's built-in bots; None when there is nothing to do now."""
    version = (
        BotVersion.objects.select_for_update(of=("self",))  # not the bot's, game's, owner's rows
        .select_related("bot__game", "bot__owner")
        .get(pk=version.pk)
    )
    if version.status not in (VersionStatus.UPLOADED, VersionStatus.WAITING_SANDBOX):
        return None
    if not trusted_owner(version.bot.owner) and local_worker():
        refusal = sandbox_refusal()
        if refusal:
            set_version_status(version, VersionStatus.WAITING_SANDBOX, reason=refusal)
            return None
    game = version.bot.game
    rng = rng or random.Random()
    seats = game.clamp_players(2)
    versions = [version, *_qualification_opponents(game, seats - 1)]
    rng.shuffle(versions)
    match = create_match(
        game=game,
        versions=versions,
        seed=rng.getrandbits(63),
        kind=MatchKind.QUALIFICATION,
        rated=False,
    )
    LadderMatch.objects.create(
        match=match, game=game, kind=MatchKind.QUALIFICATION, version=version
    )
    set_version_status(version, VersionStatus.QUALIFYING)
    send_on_commit(match)
    return match


def qualification_done(lm: LadderMatch, match: Match) -> None:
    assert lm.version_id is not None  # a qualification always names its version
    # The version's row only: the bot's row (joined for join_ladder) is not this recording's.
    version = (
        BotVersion.objects.select_for_update(of=("self",))
        .select_related("bot")
        .get(pk=lm.version_id)
    )
    if version.status != VersionStatus.QUALIFYING:
        return
    if match.status == MatchStatus.ERROR:
        # The platform failed, not the bot: never held against it, unless it keeps failing.
        if version.held_at is not None:  # ladder.error_streaks held it just now
            set_version_status(version, VersionStatus.UPLOADED, reason=version.held_reason)
        elif match.error_kind == ErrorKind.NO_BOUNDARY:  # the worker's sandbox is no boundary
            set_version_status(version, VersionStatus.WAITING_SANDBOX, reason=match.error)
        else:
            set_version_status(
                version,
                VersionStatus.UPLOADED,
                reason=f"The qualification match failed on the platform's side ({match.error});"
                " it will be tried again.",
            )
        return
    seat = next(s for s in match.seats.all() if s.bot_version_id == version.pk)
    if seat.status in ("", "ok"):
        set_version_status(version, VersionStatus.ACTIVE)
        join_ladder(version.bot, new_version=True, cause=f"v{version.number} qualified")
        return
    set_version_status(
        version,
        VersionStatus.FAILED,
        reason=f"{seat.get_status_display()} in its qualification match: {fault_text(seat)}",
        stderr=seat.stderr,
    )


def fault_text(seat: MatchSeat) -> str:
    faults = seat.faults or []
    if not faults:
        return seat.get_status_display().lower()
    last = faults[-1]
    turn = f" at turn {last['turn']}" if last.get("turn") is not None else ""
    return f"{last.get('kind', 'fault')}{turn}: {last.get('detail', '')}".strip().rstrip(":")
