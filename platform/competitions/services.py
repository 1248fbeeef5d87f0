"""Writing competitions: tournaments and league rounds, and what they do when a match ends."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bots.models import BotVersion
from bots.selectors import current_versions
from catalog.models import Game
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from foundation import stamps
from matches.models import Match, MatchStatus
from matches.services import clamp_seed, create_match, dispatch_match

from arena.formats import (
    FORMAT_NAMES,
    FormatError,
    FormatOptions,
    Result,
    StandingRow,
    check_format,
    match_points,
    new_standings,
    next_round,
    ranking,
    record_round,
    total_matches,
)
from arena.ratings import MatchRecord, update_standings
from competitions.models import (
    League,
    LeagueStanding,
    Season,
    TableStats,
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentStatus,
)
from competitions.selectors import table_stamp_key
from games.base import GameError
from games.registry import get_game
from games.rng import derive_seed

log = logging.getLogger(__name__)

#: A tournament may schedule at most this many matches (a typo must not queue a million).
MAX_TOURNAMENT_MATCHES = 2000


# ------------------------------------------------------------------------------ tournaments


def format_options(t: Tournament) -> FormatOptions:
    """The tournament's settings as ``arena.formats`` takes them."""
    return FormatOptions(
        players=t.players_per_match,
        rounds=None if t.format == TournamentFormat.KNOCKOUT else t.rounds,
        games_per_table=t.games_per_pairing,
        advance=t.advance,
        seed=t.seed,
    )


def create_tournament(
    *,
    organiser: User,
    game: Game,
    name: str,
    entrants: Sequence[BotVersion],
    format: str = TournamentFormat.ROUND_ROBIN,
    players_per_match: int = 2,
    games_per_pairing: int = 1,
    rounds: int | None = None,
    advance: int = 1,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_matches: int | None = None,
) -> Tournament:
    """A draft tournament; checks the field, the format and the game's options."""
    if not name.strip():
        raise ValidationError("A tournament needs a name.")
    if format not in TournamentFormat.values:
        raise ValidationError(f"Unknown format {format!r}: one of {', '.join(FORMAT_NAMES)}.")
    if not game.min_players <= players_per_match <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players, not {players_per_match}."
        )
    if games_per_pairing < 1:
        raise ValidationError("Each pairing must play at least one game.")
    if max_matches is not None and max_matches < 1:
        raise ValidationError("A tournament must play at least one match.")
    if max_matches is not None and format != TournamentFormat.ROUND_ROBIN:
        raise ValidationError("Only a round robin can be cut at a number of matches.")
    if format == TournamentFormat.KNOCKOUT and rounds:
        raise ValidationError("A knockout plays until one winner: leave the rounds empty.")
    wrong = [v.label for v in entrants if v.bot.game_id != game.pk]
    if wrong:
        raise ValidationError(f"Not bots for {game.name}: {', '.join(wrong)}.")
    try:
        get_game(game.slug).check_options(dict(options or {}))
    except GameError as exc:
        raise ValidationError(str(exc)) from exc
    with transaction.atomic():
        t = Tournament.objects.create(
            organiser=organiser,
            game=game,
            name=name.strip(),
            format=format,
            players_per_match=players_per_match,
            games_per_pairing=games_per_pairing,
            rounds=rounds,
            advance=advance,
            seed=clamp_seed(seed),
            options=dict(options or {}),
            max_matches=max_matches,
        )
        t.entrants.set(entrants)
    return t


def planned_matches(t: Tournament, entrants: int) -> int:
    """How many matches the tournament will play (the round robin's cut included)."""
    total = total_matches(t.format, entrants, format_options(t))
    return min(total, t.max_matches) if t.max_matches else total


def check_start(t: Tournament) -> tuple[list[BotVersion], int]:
    """The entrants of a draft tournament and the matches its format will play; a
    ValidationError saying why when it cannot start."""
    if t.status != TournamentStatus.DRAFT:
        raise ValidationError(f"{t.name} has already been started.")
    entrants = list(t.entrants.select_related("bot").order_by("pk"))
    if len(entrants) < t.players_per_match:
        raise ValidationError(
            f"{t.name} needs at least {t.players_per_match} entrants (it has {len(entrants)})."
        )
    try:
        check_format(t.format, len(entrants), format_options(t))
        planned = planned_matches(t, len(entrants))
    except FormatError as exc:
        raise ValidationError(str(exc)) from exc
    if planned > MAX_TOURNAMENT_MATCHES:
        raise ValidationError(
            f"{t.name} would play {planned} matches; the limit is "
            f"{MAX_TOURNAMENT_MATCHES}. Fewer entrants or games per pairing."
        )
    return entrants, planned


def enqueue_start(tournament: Tournament) -> None:
    """ "Start" from a page or the API: check the draft now (a clear error for the organiser),
    then let a worker store the rows and schedule the first round
    (``competitions.start_tournament``); the page shows the progress."""
    from competitions.tasks import start_tournament_task

    check_start(tournament)
    transaction.on_commit(lambda: start_tournament_task.delay(tournament.pk))


def enqueue_league_round(league: League) -> None:
    """ "Play a round now": a worker schedules the next round (hundreds of matches in a big
    league), never the request; sent twice, it plays one round."""
    from competitions.tasks import play_league_round_now

    number = league.rounds_played + 1
    transaction.on_commit(lambda: play_league_round_now.delay(league.pk, number))


def start_tournament(tournament: Tournament, *, dispatch: bool = True) -> list[Match]:
    """Start a draft tournament: store every entrant's standing row and schedule the first
    round (status ``running``); each later round is scheduled when the last match of the one
    before it ends (:func:`tournament_match_ended`). Unless ``dispatch=False`` the matches go
    to the workers once the transaction commits. Returns the first round's matches."""
    with transaction.atomic():
        t = (
            Tournament.objects.select_for_update(of=("self",))
            .select_related("game")
            .get(pk=tournament.pk)
        )
        entrants, planned = check_start(t)
        rows = new_standings([str(v.pk) for v in entrants])
        TournamentEntry.objects.bulk_create(
            [
                TournamentEntry(tournament=t, version=v, seed=i, row=rows[str(v.pk)].to_json())
                for i, v in enumerate(entrants, start=1)
            ]
        )
        t.status = TournamentStatus.RUNNING
        t.started_at = timezone.now()
        t.planned_matches = planned
        t.save(update_fields=["status", "started_at", "planned_matches"])
        matches = _schedule_from(t, rows, 0, dispatch=dispatch)
    tournament.refresh_from_db()
    return matches


def _schedule_from(
    t: Tournament, rows: dict[str, StandingRow], number: int, *, dispatch: bool
) -> list[Match]:
    """Schedule round ``number`` (or the first later round that has matches: a round of byes
    only is recorded at once); finish the tournament when the format has no more rounds or the
    round robin's cut is reached. Inside the caller's transaction, the tournament locked."""
    opts = format_options(t)
    while True:
        left = (t.max_matches - t.scheduled_matches) if t.max_matches else None
        rnd = next_round(t.format, rows, number, opts) if left is None or left > 0 else None
        if rnd is None:
            _finish(t, rows)
            return []
        planned = rnd.matches if left is None else rnd.matches[:left]
        t.current_round = number
        if planned:
            by_key = {str(e.version_id): e.version for e in _entries(t)}
            matches = [
                create_match(
                    game=t.game,
                    versions=[by_key[k] for k in sm.bots],
                    seed=sm.seed,
                    options=t.options,
                    tournament=t,
                    round=number,
                )
                for sm in planned
            ]
            t.scheduled_matches += len(matches)
            t.save(update_fields=["current_round", "scheduled_matches"])
            if dispatch:
                for m in matches:
                    transaction.on_commit(partial(dispatch_match, m))
            return matches
        rows = record_round(t.format, rows, number, [], opts)
        _save_rows(t, rows)
        number += 1


def _entries(t: Tournament) -> list[TournamentEntry]:
    return list(t.entries.select_related("version__bot").order_by("pk"))


def _save_rows(t: Tournament, rows: dict[str, StandingRow]) -> None:
    """Store the format's rows and the ranking's positions on the entries."""
    order = {row.bot: i for i, row in enumerate(ranking(t.format, rows), start=1)}
    entries = _entries(t)
    for e in entries:
        row = rows[str(e.version_id)]
        e.row = row.to_json()
        e.points = row.points
        e.eliminated = row.eliminated
        e.position = order.get(row.bot)
    TournamentEntry.objects.bulk_update(entries, ["row", "points", "eliminated", "position"])


def _finish(t: Tournament, rows: dict[str, StandingRow]) -> None:
    _save_rows(t, rows)
    t.status = TournamentStatus.FINISHED
    t.finished_at = timezone.now()
    t.save(update_fields=["status", "finished_at", "current_round", "scheduled_matches"])


def tournament_match_ended(match: Match, seats: Sequence[Any] | None) -> None:
    assert match.tournament_id is not None
    """A match of a tournament was recorded (``seats`` given) or failed (None). Runs inside
    that match's recording transaction: the tournament's row is locked first, so two matches
    ending at once cannot both miss (or both make) the end of a round. Updates the entrants'
    statistics, and when it was the round's last match, records the round in the format's
    rows and schedules the next one (or finishes the tournament)."""
    # The tournament's row only, not the game's it joins: a session that goes silent while
    # recording must not hold the row every recording of the game needs.
    t = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(pk=match.tournament_id)
        .first()
    )
    if t is None or t.status != TournamentStatus.RUNNING:
        return
    if seats:
        _add_to_table(t, match, seats)
    if match.round != t.current_round:
        return  # a late re-run of an earlier round: its statistics count, the plan has moved on
    round_matches = list(
        t.matches.filter(round=t.current_round).prefetch_related("seats").order_by("pk")
    )
    if any(not m.is_done for m in round_matches):
        return
    results = []
    for m in round_matches:
        ordered = sorted(m.seats.all(), key=lambda s: s.seat)
        bots = tuple(str(s.bot_version_id) for s in ordered)
        finished = m.status == MatchStatus.FINISHED
        ranks = tuple(int(s.rank or 0) for s in ordered) if finished else None
        results.append(Result(bots, ranks))
    before = {str(e.version_id): StandingRow.from_json(e.row) for e in _entries(t)}
    after = record_round(t.format, before, t.current_round, results, format_options(t))
    _save_rows(t, after)
    _schedule_from(t, after, t.current_round + 1, dispatch=True)


def _add_to_table(t: Tournament, match: Match, seats: Sequence[Any]) -> None:
    """Fold one finished match into the entrants' statistics (fresh Elo and OpenSkill over
    this tournament only), locking their rows in primary-key order."""
    keys = [str(s.bot_version_id) for s in seats]
    entries = {
        str(e.version_id): e
        for e in TournamentEntry.objects.select_for_update()
        .filter(tournament=t, version_id__in=[int(k) for k in keys])
        .order_by("pk")
    }
    if len(entries) != len(set(keys)):
        return  # not all seats are entrants (cannot happen for scheduled matches)
    table = update_standings(
        {k: e.standing(k) for k, e in entries.items()}, seat_record(keys, seats)
    )
    for k, e in entries.items():
        e.take(table[k])
    TournamentEntry.objects.bulk_update(list(entries.values()), list(TableStats.STAT_FIELDS))


def seat_record(keys: Sequence[str], seats: Sequence[Any]) -> MatchRecord:
    """A recorded match's seats as ``arena.ratings`` reads them, bots named by ``keys``."""
    return MatchRecord(
        bots=tuple(keys),
        ranks=tuple(int(s.rank) for s in seats),
        scores=tuple(float(s.score) for s in seats)
        if all(s.score is not None for s in seats)
        else (),
        seat_status=tuple(s.status or "ok" for s in seats),
    )


# ---------------------------------------------------------------------------------- leagues


#: A league plays at least once a month and at most once an hour.
LEAGUE_MAX_EVERY_HOURS = 24 * 31


#: The Celery task that beat runs for each league (its clock: ``PeriodicTask`` "League <id>").
LEAGUE_TASK = "competitions.play_league_round"


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
) -> League:
    """A league of every bot of ``game``, with its first season open and its beat schedule
    (first round due at once, then every ``every_hours``)."""
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
        )
        _open_season(lg, timezone.now())
        sync_league_schedule(lg, due_now=True)
    return lg


def sync_league_schedule(league: League, *, due_now: bool = False) -> None:
    """The league's beat entry (``django_celery_beat``'s ``PeriodicTask`` "League <id>"),
    following ``every_hours`` and ``is_active``; ``due_now`` makes its next tick play a round."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every, _ = IntervalSchedule.objects.get_or_create(
        every=league.every_hours, period=IntervalSchedule.HOURS
    )
    defaults: dict[str, Any] = {
        "task": LEAGUE_TASK,
        "interval": every,
        "args": json.dumps([league.pk]),
        "enabled": league.is_active,
        "description": f"Play a round of the league {league.name!r} (competitions.services).",
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
    return [
        lg
        for lg in League.objects.filter(is_active=True).select_related("game")
        if lg.last_run_at is None or lg.last_run_at + timedelta(hours=lg.every_hours) <= now
    ]


def beat_round_due(lg: League, now: datetime) -> bool:
    """Whether a beat tick may play the league's next round: no round in the last half of its
    interval. Beat decides when a round is due; this only refuses a tick sent twice (two beats)
    or right after "play a round now", while a tick that comes a little early (the last round
    was recorded a little after its tick) still plays."""
    return lg.last_run_at is None or lg.last_run_at + timedelta(hours=lg.every_hours / 2) <= now


def run_league_round(league: League, *, dispatch: bool = True) -> list[Match]:
    """Schedule the league's next round: every bot of the game (its current version) plays at
    most one match, tables paired Swiss-style from the season's stored standings (points,
    opponents met, seats used: no replay of past rounds). Fewer bots than seats: no match, the
    round still counts."""
    with transaction.atomic():
        # The league's row only: the game's row is every recording's (its match counter).
        lg = League.objects.select_for_update(of=("self",)).select_related("game").get(pk=league.pk)
        now = timezone.now()
        season = current_season(lg, now)
        versions = {str(bot_id): v for bot_id, v in current_versions(lg.game).items()}
        players = lg.game.clamp_players(lg.players_per_match)
        number = lg.rounds_played + 1
        matches: list[Match] = []
        if len(versions) >= players:
            stored = {
                str(st.bot_id): StandingRow.from_json(st.row)
                for st in LeagueStanding.objects.filter(
                    season=season, bot_id__in=map(int, versions)
                )
            }
            # Seeding 1..n by bot age (the format's tie-break of last resort).
            rows = {
                k: replace(stored.get(k) or StandingRow(bot=k, seed=i), seed=i)
                for i, k in enumerate(sorted(versions, key=int), start=1)
            }
            index = number - season.first_round
            opts = FormatOptions(players=players, rounds=index + 1, seed=lg.seed)
            rnd = next_round("swiss", rows, index, opts)
            for sm in rnd.matches if rnd else []:
                matches.append(
                    create_match(
                        game=lg.game,
                        versions=[versions[k] for k in sm.bots],
                        seed=derive_seed(lg.seed, "league", number, sm.seed),
                        league=lg,
                        round=number,
                    )
                )
        lg.rounds_played = number
        lg.last_run_at = now
        lg.save(update_fields=["rounds_played", "last_run_at"])
        season.rounds_played += 1
        season.save(update_fields=["rounds_played"])
        if dispatch:
            for m in matches:
                transaction.on_commit(partial(dispatch_match, m))
    league.refresh_from_db()
    return matches


def league_match_ended(match: Match, seats: Sequence[Any]) -> None:
    """Fold a recorded league match into the season's and the all-time standings of its bots
    (inside the match's recording transaction; rows locked in primary-key order)."""
    assert match.league_id is not None
    season = (
        Season.objects.filter(league_id=match.league_id, first_round__lte=match.round)
        .order_by("-first_round")
        .first()
    )
    bot_ids = [s.bot_version.bot_id for s in seats]
    if len(set(bot_ids)) != len(bot_ids):
        return  # one bot in two seats: not a league match the table can count
    key = table_stamp_key(match.league_id)
    transaction.on_commit(lambda: stamps.bump(key))
    for scope in (season, None):
        LeagueStanding.objects.bulk_create(
            [LeagueStanding(league_id=match.league_id, season=scope, bot_id=b) for b in bot_ids],
            ignore_conflicts=True,
        )
        rows = {
            st.bot_id: st
            for st in LeagueStanding.objects.select_for_update()
            .filter(league_id=match.league_id, season=scope, bot_id__in=bot_ids)
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
