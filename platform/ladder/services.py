"""The ladder's matchmaker: its tick qualifies pending uploads and fills each game's budget of
ladder matches (``arena.matchmaking`` plans them). Qualification is ``ladder.qualification``,
the entries ``ladder.entries``, what a finished match does ``ladder.results``, friendly
challenges ``ladder.challenges``.

Matches are made with ``matches.services.create_match`` (kind ``qualification``, ``ladder`` or
``challenge``; only ladder matches are rated) and sent with ``dispatch_match`` when their
transaction commits: the normal path (broker, worker, sandbox), so no web request plays one.
The tick runs as the ``ladder.tick`` task under Celery beat, in the embedded default too (the
worker that ``manage.py demo --serve`` starts runs beat).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bots.models import BotVersion, VersionStatus
from bots.selectors import playing_versions
from catalog.models import Game
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone
from matches.models import MatchKind
from matches.services import create_match

from arena.matchmaking import Candidate, MatchmakingSettings, plan_matches
from arena.ratings import DEFAULT_MU, DEFAULT_SIGMA
from ladder.entries import ensure_entries
from ladder.models import LadderEntry, LadderMatch, LadderState
from ladder.qualification import start_qualification
from ladder.selectors import busy_bot_ids, inflight_ladder_matches, rating_rows
from ladder.sending import send_on_commit

log = logging.getLogger(__name__)

#: How often versions waiting for a sandbox try again.
SANDBOX_RETRY = timedelta(minutes=10)
#: A ladder match created but not sent this long ago was lost (a process died): send again.
LOST_AFTER = timedelta(seconds=60)


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
        ensure_entries(game)
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
                send_on_commit(match)
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
    # Uploads whose code check was lost are the checks' sweeper's (``bots.check_sweeper``,
    # ladder or not); they qualify here once their check passes.
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
