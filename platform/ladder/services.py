"""Writing the ladder: qualifying versions, the matchmaker's tick, what a finished match does
to the ladder (placement, fault streaks, suspension), and challenges.

Matches are made with ``matches.services.create_match`` (kind ``qualification``, ``ladder`` or
``challenge``; only ladder matches are rated) and sent with ``dispatch_match`` when their
transaction commits: the normal path (broker, worker, sandbox), so no web request plays one.
The tick runs as the ``ladder.tick`` task under Celery beat, in the embedded default too (the
worker that ``manage.py demo --serve`` starts runs beat).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bots.checks import resend_lost_checks
from bots.models import Bot, BotVersion, VersionStatus
from bots.selectors import playing_versions
from bots.services import SYSTEM_USERNAME, set_version_status
from catalog.models import Game
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from matches.services import create_match, dispatch_match

from arena.matchmaking import Candidate, MatchmakingSettings, plan_matches
from arena.ratings import DEFAULT_MU, DEFAULT_SIGMA
from ladder.models import LadderEntry, LadderMatch, LadderState
from ladder.selectors import busy_bot_ids, inflight_ladder_matches, rating_rows

log = logging.getLogger(__name__)

#: Seat statuses that count toward a suspension ("illegal" played to the end: it does not).
SUSPENDING_FAULTS = frozenset({"crashed", "timeout", "retired"})
#: Words of the worker's refusal to run a stranger's code without a security boundary.
_NO_BOUNDARY = "not a security boundary"
#: How often versions waiting for a sandbox try again.
SANDBOX_RETRY = timedelta(minutes=10)
#: A ladder match created but not sent this long ago was lost (a process died): send again.
LOST_AFTER = timedelta(seconds=60)


def _send(match: Match) -> None:
    transaction.on_commit(lambda: dispatch_match(match))


def _local_worker() -> bool:
    """True when matches are played on this machine with this configuration (the embedded
    broker, or inline): then this process can tell whether a sandbox would refuse."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER or getattr(settings, "EMBEDDED_BROKER", False))


def trusted_owner(owner: Any) -> bool:
    """The operator's own code (staff, or the platform's ``arena`` user) may run in any
    sandbox; everyone else's needs a security boundary (see ``sandbox.require_boundary``)."""
    return bool(owner.is_staff or owner.get_username() == SYSTEM_USERNAME)


def sandbox_refusal() -> str:
    """Why strangers' code cannot run here now ('' when it can). Asked only in the embedded
    mode, whose worker shares this machine and settings; elsewhere the worker's own refusal
    (an ``error`` match) tells."""
    if settings.ARENA_ALLOW_UNSAFE_SANDBOX:
        return ""
    from arena.bot_code import boundary_refusal

    return boundary_refusal(settings.ARENA_SANDBOX)


# ----------------------------------------------------------------------------- qualification


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
        from bots.services import ensure_builtin_bots

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
    if not trusted_owner(version.bot.owner) and _local_worker():
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
    _send(match)
    return match


def _qualification_done(lm: LadderMatch, match: Match) -> None:
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
        elif _NO_BOUNDARY in (match.error or ""):
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
        join_ladder(version.bot, new_version=True)
        return
    set_version_status(
        version,
        VersionStatus.FAILED,
        reason=f"{seat.get_status_display()} in its qualification match: {_fault_text(seat)}",
        stderr=seat.stderr,
    )


def _fault_text(seat: MatchSeat) -> str:
    faults = seat.faults or []
    if not faults:
        return seat.get_status_display().lower()
    last = faults[-1]
    turn = f" at turn {last['turn']}" if last.get("turn") is not None else ""
    return f"{last.get('kind', 'fault')}{turn}: {last.get('detail', '')}".strip().rstrip(":")


# ----------------------------------------------------------------------------------- entries


def join_ladder(bot: Bot, *, new_version: bool) -> LadderEntry:
    """Put ``bot`` on its game's ladder. A newly qualified version owes placement matches,
    resets the fault streak and lifts a suspension (a new version is a fresh start)."""
    entry, created = LadderEntry.objects.select_for_update().get_or_create(
        bot=bot, defaults={"game_id": bot.game_id}
    )
    if new_version or created:
        entry.placement_owed = 0 if bot.is_builtin else settings.ARENA_LADDER_PLACEMENT
        entry.fault_streak = 0
        entry.suspended_at = None
        entry.suspended_reason = ""
        entry.save()
    return entry


def _ensure_entries(game: Game) -> int:
    """Built-in bots (and any bot with an active version but no entry) join the ladder."""
    missing = list(
        Bot.objects.filter(
            game=game, ladder_entry__isnull=True, versions__status=VersionStatus.ACTIVE
        )
        .distinct()
        .only("id", "game_id", "is_builtin")
    )
    LadderEntry.objects.bulk_create(
        [
            LadderEntry(
                bot=b,
                game=game,
                placement_owed=0 if b.is_builtin else settings.ARENA_LADDER_PLACEMENT,
            )
            for b in missing
        ],
        ignore_conflicts=True,
    )
    return len(missing)


# -------------------------------------------------------------------------------------- tick


@dataclass
class TickReport:
    game: str
    qualifications: list[int] = field(default_factory=list)
    ladder_matches: list[int] = field(default_factory=list)
    inflight: int = 0
    skipped: bool = False


def tick(
    game: Game, *, now: datetime | None = None, rng: random.Random | None = None
) -> TickReport:
    """One matchmaker tick for ``game``: qualify pending uploads, then fill the ladder up to
    ``ARENA_LADDER_BUDGET`` matches queued or running. Ticks of one game never overlap (a
    second one finds the game's row locked and skips)."""
    now = now or timezone.now()
    rng = rng or random.Random()
    report = TickReport(game=game.slug)
    with transaction.atomic():
        state = _lock_state(game)
        if state is None:
            report.skipped = True
            return report
        _qualify_pending(game, state, now, rng, report)
        _ensure_entries(game)
        inflight = inflight_ladder_matches(game)
        free = settings.ARENA_LADDER_BUDGET - inflight
        report.inflight = inflight
        if free > 0 and game.max_players >= 2:  # a solo-only game has no ladder
            made = [
                create_match(
                    game=game,
                    versions=group,
                    seed=rng.getrandbits(63),
                    kind=MatchKind.LADDER,
                    rated=True,
                )
                for group in _plan(game, now, rng, free)
            ]
            LadderMatch.objects.bulk_create(
                [LadderMatch(match=m, game=game, kind=MatchKind.LADDER) for m in made]
            )
            for match in made:
                _send(match)
                report.ladder_matches.append(match.pk)
        state.last_tick_at = now
        state.ticks += 1
        state.save()
    return report


def _lock_state(game: Game) -> LadderState | None:
    """The game's ladder row, locked for this tick; None when another tick holds it."""
    lock = LadderState.objects.select_for_update(skip_locked=True).filter(game=game)
    state = lock.first()
    if state is None and not LadderState.objects.filter(game=game).exists():
        LadderState.objects.get_or_create(game=game)
        state = lock.first()
    return state


def _qualify_pending(
    game: Game, state: LadderState, now: datetime, rng: random.Random, report: TickReport
) -> None:
    # Uploads whose code check was lost go to a worker again; they qualify once it passes.
    resend_lost_checks(game, now)
    statuses = [VersionStatus.UPLOADED]
    retry = state.last_sandbox_retry_at
    if retry is None or now - retry >= SANDBOX_RETRY or settings.ARENA_ALLOW_UNSAFE_SANDBOX:
        statuses.append(VersionStatus.WAITING_SANDBOX)
        state.last_sandbox_retry_at = now
    pending = BotVersion.objects.filter(
        bot__game=game, status__in=statuses, held_at__isnull=True
    ).order_by("pk")[:20]
    for version in pending:
        try:  # its own savepoint: one version that cannot be set up never stops the ladder
            match = start_qualification(version, rng=rng)
        except Exception:
            log.exception("qualification of version %s could not start", version.pk)
            continue
        if match is not None:
            report.qualifications.append(match.pk)


def candidates(game: Game, now: datetime) -> list[Candidate]:
    """The matchmaker's view of a game's ladder (three reads, none over the match history)."""
    busy = busy_bot_ids(game)
    ratings = rating_rows(game)
    # Only bots with a version to play: one whose versions are all held would be planned and
    # then dropped, each tick, taking its partners' places.
    playable = BotVersion.objects.filter(
        bot_id=OuterRef("bot_id"), status=VersionStatus.ACTIVE, held_at__isnull=True
    )
    rows = (
        LadderEntry.objects.filter(game=game, suspended_at__isnull=True)
        .filter(Exists(playable))
        .order_by()  # no join for the model's ordering: the planner needs none
        .annotate(since=Coalesce("last_match_at", "joined_at"))
        .values_list("bot_id", "placement_owed", "since")
    )
    out = []
    for bot_id, placement, since in rows:
        mu, sigma, played = ratings.get(bot_id, (DEFAULT_MU, DEFAULT_SIGMA, 0))
        out.append(
            Candidate(
                bot_id=bot_id,
                mu=mu,
                sigma=sigma,
                matches_played=played,
                placement_owed=placement,
                waited_s=(now - since).total_seconds(),
                active=bot_id not in busy,
            )
        )
    return out


def _plan(game: Game, now: datetime, rng: random.Random, free: int) -> list[list[BotVersion]]:
    groups = plan_matches(
        candidates(game, now),
        min_seats=max(2, game.min_players),
        max_seats=max(2, game.max_players),
        budget=free,
        rng=rng,
        settings=MatchmakingSettings(),
    )
    versions = playing_versions({b for g in groups for b in g})
    return [[versions[b] for b in g] for g in groups if all(b in versions for b in g)]


def run_ladders(*, rng: random.Random | None = None) -> list[TickReport]:
    """One tick of every active game's ladder (what the beat task calls). A game whose tick
    fails is logged and skipped: the other ladders keep running."""
    reports = []
    for game in Game.objects.filter(is_active=True).order_by("pk"):
        try:
            reports.append(tick(game, rng=rng))
        except Exception:
            log.exception("ladder tick of %s failed", game.slug)
            reports.append(TickReport(game=game.slug, skipped=True))
    return reports


# --------------------------------------------------------------------------- match finished


@transaction.atomic
def match_finished(match: Match) -> None:
    """What a finished (or errored) match does to the ladder: a qualification decides its
    version; a ladder match counts placement and fault streaks, and suspends a bot after
    ``ARENA_LADDER_SUSPEND_AFTER`` faults in a row. Platform errors never count. Called inside
    the transaction that records the match (``matches.signals``), at most once per match."""
    if match.kind not in (MatchKind.QUALIFICATION, MatchKind.LADDER):
        return
    lm = LadderMatch.objects.filter(match_id=match.pk).first()
    if lm is None:
        return
    if lm.kind == MatchKind.QUALIFICATION:
        _qualification_done(lm, match)
    elif lm.kind == MatchKind.LADDER and match.status == MatchStatus.FINISHED:
        _ladder_done(match)


def _ladder_done(match: Match) -> None:
    seats = list(match.seats.select_related("bot_version").order_by("seat"))
    entries = {
        e.bot_id: e
        for e in LadderEntry.objects.select_for_update()
        .filter(bot_id__in=[s.bot_version.bot_id for s in seats])
        .order_by("pk")
    }
    limit = settings.ARENA_LADDER_SUSPEND_AFTER
    now = match.finished_at or timezone.now()
    for seat in seats:
        entry = entries.get(seat.bot_version.bot_id)
        if entry is None:
            continue
        entry.ladder_matches += 1
        entry.last_match_at = now
        entry.placement_owed = max(0, entry.placement_owed - 1)
        if seat.status in SUSPENDING_FAULTS:
            entry.fault_streak += 1
            if entry.fault_streak >= limit and entry.suspended_at is None:
                entry.suspended_at = now
                entry.suspended_reason = (
                    f"Suspended from the ladder: {entry.fault_streak} ladder matches in a row "
                    f"ended in a fault (the last, match {match.pk}: "
                    f"{seat.get_status_display().lower()}, {_fault_text(seat)}). "
                    "Upload a new version: once it qualifies, the bot is back."
                )
        else:
            entry.fault_streak = 0
    LadderEntry.objects.bulk_update(
        list(entries.values()),
        [
            "ladder_matches",
            "last_match_at",
            "placement_owed",
            "fault_streak",
            "suspended_at",
            "suspended_reason",
        ],
    )


# -------------------------------------------------------------------------------- challenges


@transaction.atomic
def create_challenge(
    *, user: User, bot: Bot, opponents: Sequence[Bot], now: datetime | None = None
) -> Match:
    """A friendly (unrated) match of ``user``'s ``bot`` against chosen bots of its game,
    within ``ARENA_CHALLENGES_PER_DAY`` per user (counted in the database, under a lock on the
    user's row, so that parallel requests cannot pass the limit together)."""
    from django.contrib.auth import get_user_model

    now = now or timezone.now()
    if bot.owner_id != user.pk:
        raise ValidationError("You can only challenge with a bot of your own.")
    game = bot.game
    others = list(dict.fromkeys(opponents))
    if not others:
        raise ValidationError("Choose at least one bot to challenge.")
    if bot in others:
        raise ValidationError(f"{bot.name} cannot challenge itself.")
    wrong = [o.name for o in others if o.game_id != game.pk]
    if wrong:
        raise ValidationError(f"Not bots for {game.name}: {', '.join(wrong)}.")
    seats = 1 + len(others)
    if not game.min_players <= seats <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players: choose "
            f"{max(1, game.min_players - 1)} to {game.max_players - 1} opponents, not "
            f"{len(others)}."
        )
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    limit = settings.ARENA_CHALLENGES_PER_DAY
    used = LadderMatch.objects.filter(
        kind=MatchKind.CHALLENGE, challenger=user, created_at__gte=now - timedelta(days=1)
    ).count()
    if used >= limit:
        raise ValidationError(
            f"You have used your {limit} challenges of the last 24 hours; try again later."
        )
    versions = playing_versions([bot.pk, *(o.pk for o in others)])
    missing = [b.name for b in [bot, *others] if b.pk not in versions]
    if missing:
        raise ValidationError(f"No qualified version to play with: {', '.join(missing)}.")
    match = create_match(
        game=game,
        versions=[versions[bot.pk], *(versions[o.pk] for o in others)],
        seed=random.getrandbits(63),
        kind=MatchKind.CHALLENGE,
        rated=False,
    )
    LadderMatch.objects.create(match=match, game=game, kind=MatchKind.CHALLENGE, challenger=user)
    _send(match)
    return match
