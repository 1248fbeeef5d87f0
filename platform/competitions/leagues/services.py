"""Leagues: every bot of a game, in seasons, a round on Celery beat's clock (or "play a round
now"), tables paired Swiss-style from the season's stored standings."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bots.selectors import current_versions
from catalog.models import Game
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from foundation import stamps
from foundation.task_sending import send_by_name
from matches.models import Match
from matches.services import clamp_seed, dispatch_matches

from arena.formats import FormatOptions, StandingRow, match_points, next_round
from arena.ratings import update_standings
from competitions.leagues.selectors import table_stamp_key
from competitions.leagues.timetable import league_next_round_at, league_round_due
from competitions.models import CompetitionMatch, League, LeagueStanding, Season, TableStats
from competitions.scheduling import Table, create_round_matches
from competitions.tables import seat_record
from games.rng import derive_seed

#: A league plays at least once a month and at most once an hour.
LEAGUE_MAX_EVERY_HOURS = 24 * 31


#: The Celery task that beat runs for each league (its clock: ``PeriodicTask`` "League <id>").
LEAGUE_TASK = "competitions.play_league_round"
#: The task of "play a round now" (``competitions.tasks``), sent by name: the tasks import
#: this module, never the reverse.
ROUND_NOW_TASK = "competitions.play_league_round_now"


def create_league(
    *,
    game: Game,
    name: str,
    every_hours: int = 24,
    players_per_match: int = 2,
    rounds_per_season: int = 30,
    seed: int = 0,
    is_active: bool = True,
    organiser: User | None = None,
    starts_at: datetime | None = None,
) -> League:
    """A league of every bot of ``game``, with its first season open and its calendar: rounds
    at ``starts_at + k * every_hours`` (``starts_at`` default: now, the first round at once),
    played by beat (``calendar.play_due_leagues``)."""
    if not name.strip():
        raise ValidationError("A league needs a name.")
    if not game.min_players <= players_per_match <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players, not {players_per_match}."
        )
    if not 1 <= every_hours <= LEAGUE_MAX_EVERY_HOURS:
        raise ValidationError(
            f"A league plays a round every 1 to {LEAGUE_MAX_EVERY_HOURS} hours, not {every_hours}."
        )
    if not 1 <= rounds_per_season <= 1000:
        raise ValidationError(f"A season has 1 to 1000 rounds, not {rounds_per_season}.")
    now = timezone.now()
    starts = starts_at or now
    with transaction.atomic():
        lg = League.objects.create(
            game=game,
            name=name.strip(),
            organiser=organiser,
            every_hours=every_hours,
            players_per_match=players_per_match,
            rounds_per_season=rounds_per_season,
            seed=clamp_seed(seed),
            is_active=is_active,
            starts_at=starts,
        )
        _open_season(lg, max(now, starts))  # a later start: its season begins then
        sync_league_schedule(lg, due_now=True)
    return lg


def enqueue_league_round(league: League) -> None:
    """ "Play a round now": a worker schedules the next round (hundreds of matches in a big
    league), never the request; sent twice, it plays one round."""
    number = league.rounds_played + 1
    transaction.on_commit(partial(send_by_name, ROUND_NOW_TASK, [league.pk, number]))


def sync_league_schedule(league: League, *, due_now: bool = False) -> None:
    """The league's beat entry (``django_celery_beat``'s ``PeriodicTask`` "League <id>"),
    following ``every_hours`` and ``is_active``, from ``starts_at``; ``due_now`` makes its next
    tick play a round if the calendar says one is due. (The calendar tick plays rounds at
    their times; this entry, editable in the admin, is the league's own switch.)"""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every, _ = IntervalSchedule.objects.get_or_create(
        every=league.every_hours, period=IntervalSchedule.HOURS
    )
    defaults: dict[str, Any] = {
        "task": LEAGUE_TASK,
        "interval": every,
        "args": json.dumps([league.pk]),
        "enabled": league.is_active,
        "description": f"Play a round of the league {league.name!r} (competitions.leagues).",
        "start_time": league.starts_at,
    }
    if due_now:
        defaults["last_run_at"] = timezone.now() - timedelta(hours=league.every_hours)
    PeriodicTask.objects.update_or_create(name=f"League {league.pk}", defaults=defaults)


def _open_season(lg: League, now: datetime) -> Season:
    last = lg.seasons.order_by("-number").first()
    return Season.objects.create(
        league=lg,
        number=(last.number + 1) if last else 1,
        starts_at=now,
        ends_at=now + timedelta(hours=lg.every_hours * lg.rounds_per_season),
        rounds=lg.rounds_per_season,
        first_round=lg.rounds_played + 1,
    )


def current_season(lg: League, now: datetime | None = None) -> Season:
    """The season the next round belongs to: the open one, or a new one once it has played
    its rounds or passed its end (the league rolls into its next season)."""
    now = now or timezone.now()
    season = lg.seasons.filter(finished_at__isnull=True).order_by("-number").first()
    if season is not None and (
        season.rounds_played >= season.rounds or (season.ends_at and season.ends_at <= now)
    ):
        season.finished_at = now
        season.save(update_fields=["finished_at"])
        season = None
    return season or _open_season(lg, now)


def due_leagues(now: Any = None) -> list[League]:
    """Active leagues whose next round is due (for ``manage.py run_leagues``; beat does the
    same on its own clock)."""
    now = now or timezone.now()
    leagues = League.objects.filter(is_active=True).select_related("game")
    return [lg for lg in leagues if (due := league_next_round_at(lg, now)) and due <= now]


def beat_round_due(lg: League, now: datetime) -> bool:
    """Whether a beat tick may play the league's next round. On a calendar: the round of its
    latest time is not played yet. Without one (``starts_at`` null): no round in the last half
    of its interval, which refuses a tick sent twice (two beats) or right after "play a round
    now", while a tick that comes a little early still plays."""
    if lg.starts_at is not None:
        return league_round_due(lg, now)
    return lg.last_run_at is None or lg.last_run_at + timedelta(hours=lg.every_hours / 2) <= now


@dataclass(frozen=True)
class RoundPlan:
    """A league round planned from what the database held (no lock): its number, the first
    round of the season it belongs to, and its matches."""

    number: int
    first_round: int
    tables: list[Table]


def run_league_round(
    league: League,
    *,
    dispatch: bool = True,
    number: int | None = None,
    when: Callable[[League, datetime], bool] | None = None,
    now: datetime | None = None,
) -> list[Match]:
    """Schedule the league's next round: every bot of the game (its current version) plays at
    most one match, tables paired Swiss-style from the season's stored standings (points,
    opponents met, seats used: no replay of past rounds). Fewer bots than seats: no match, the
    round still counts.

    The round is planned first, reading without a lock (the pairing is the long part), then
    written in one short transaction that locks the league's row alone, and only as a key
    holder's writes do, so recordings (which add standings rows under the league) never wait.
    Nothing is played if, by then, the next round is not ``number`` (when given), ``when``
    (league, now) is false, or another worker has played the round meanwhile. ``now``: the
    round's time (``last_run_at``; the calendar passes the tick's)."""
    now = now or timezone.now()
    lg = League.objects.select_related("game").get(pk=league.pk)
    if not _wanted(lg, number, when, now):
        return []
    plan = plan_league_round(lg, now)
    with transaction.atomic():
        locked = League.objects.select_for_update(no_key=True).get(pk=lg.pk)
        if locked.rounds_played != lg.rounds_played or not _wanted(locked, number, when, now):
            return []
        locked.game = lg.game
        season = current_season(locked, now)
        if season.first_round != plan.first_round:  # seasons edited meanwhile: plan again
            plan = plan_league_round(locked, now)
        matches = (
            create_round_matches(locked, round=plan.number, game=lg.game, tables=plan.tables)
            if plan.tables
            else []
        )
        locked.rounds_played = plan.number
        locked.last_run_at = now
        locked.save(update_fields=["rounds_played", "last_run_at"])
        season.rounds_played += 1
        season.save(update_fields=["rounds_played"])
        if dispatch and matches:
            transaction.on_commit(partial(dispatch_matches, matches))
    league.refresh_from_db()
    return matches


def _wanted(
    lg: League, number: int | None, when: Callable[[League, datetime], bool] | None, now: datetime
) -> bool:
    return (number is None or lg.rounds_played + 1 == number) and (when is None or when(lg, now))


def plan_league_round(lg: League, now: datetime) -> RoundPlan:
    """The league's next round as the database holds it now (reads only, a fixed number of
    queries): pairs of the open season's standings, or of a new season's empty ones."""
    number = lg.rounds_played + 1
    season = _open_season_at(lg, now)
    first = season.first_round if season is not None else number
    versions = {str(bot_id): v for bot_id, v in current_versions(lg.game).items()}
    players = lg.game.clamp_players(lg.players_per_match)
    if len(versions) < players:
        return RoundPlan(number, first, [])
    stored = {
        str(st.bot_id): StandingRow.from_json(st.row)
        for st in (
            LeagueStanding.objects.filter(season=season, bot_id__in=map(int, versions))
            if season is not None
            else []
        )
    }
    # Seeding 1..n by bot age (the format's tie-break of last resort).
    rows = {
        k: replace(stored.get(k) or StandingRow(bot=k, seed=i), seed=i)
        for i, k in enumerate(sorted(versions, key=int), start=1)
    }
    index = number - first
    opts = FormatOptions(players=players, rounds=index + 1, seed=lg.seed)
    rnd = next_round("swiss", rows, index, opts)
    tables = [
        Table([versions[k] for k in sm.bots], derive_seed(lg.seed, "league", number, sm.seed))
        for sm in (rnd.matches if rnd else [])
    ]
    return RoundPlan(number, first, tables)


def _open_season_at(lg: League, now: datetime) -> Season | None:
    """The season :func:`current_season` would give, None for a new one (reads only)."""
    season = lg.seasons.filter(finished_at__isnull=True).order_by("-number").first()
    if season is None or season.rounds_played >= season.rounds:
        return None
    return None if season.ends_at and season.ends_at <= now else season


def league_match_ended(link: CompetitionMatch, seats: Sequence[Any]) -> None:
    """Fold a recorded league match into the season's and the all-time standings of its bots
    (inside the match's recording transaction; rows locked in primary-key order)."""
    league_id = link.league_id
    assert league_id is not None  # the receiver sends league matches only
    season = (
        Season.objects.filter(league_id=league_id, first_round__lte=link.round)
        .order_by("-first_round")
        .first()
    )
    bot_ids = [s.bot_version.bot_id for s in seats]
    if len(set(bot_ids)) != len(bot_ids):
        return  # one bot in two seats: not a league match the table can count
    key = table_stamp_key(league_id)
    transaction.on_commit(lambda: stamps.bump(key))
    for scope in (season, None):
        LeagueStanding.objects.bulk_create(
            [LeagueStanding(league_id=league_id, season=scope, bot_id=b) for b in bot_ids],
            ignore_conflicts=True,
        )
        rows = {
            st.bot_id: st
            for st in LeagueStanding.objects.select_for_update()
            .filter(league_id=league_id, season=scope, bot_id__in=bot_ids)
            .order_by("pk")
        }
        _fold(rows, [rows[b] for b in bot_ids], seats)


def _fold(
    rows: dict[int, LeagueStanding], ordered: list[LeagueStanding], seats: Sequence[Any]
) -> None:
    ranks = [int(s.rank) for s in seats]
    keys = [str(st.bot_id) for st in ordered]
    table = update_standings(
        {k: st.standing(k) for k, st in zip(keys, ordered, strict=True)}, seat_record(keys, seats)
    )
    for seat, (st, pts) in enumerate(zip(ordered, match_points(ranks), strict=True)):
        row = (
            StandingRow.from_json(st.row)
            if st.row
            else StandingRow(bot=str(st.bot_id), seed=st.bot_id)
        )
        row.count_match(seat, keys, ranks, pts)
        new = table[str(st.bot_id)]
        st.row = row.to_json()
        st.points = row.points
        st.take(new)
        st.ordinal = new.ordinal
    LeagueStanding.objects.bulk_update(
        list(rows.values()), ["row", "points", "ordinal", *TableStats.STAT_FIELDS]
    )
