"""Tournaments: a draft, its start (entrants' rows, the first round), and each later round,
scheduled inside the recording of the last match of the round before it (spaced rounds: by
beat at ``next_round_at``, ``play_waiting_round``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import Any, Unpack

from bots.models import BotVersion
from catalog.models import Game
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from foundation.task_sending import send_by_name
from matches.models import Match, MatchStatus
from matches.services import clamp_seed, dispatch_matches

from arena import contract
from arena.formats import (
    FORMAT_NAMES,
    FORMATS,
    FormatError,
    FormatOptions,
    Result,
    StandingRow,
    check_format,
    check_shape,
    new_standings,
    next_round,
    ranking,
    record_round,
    total_matches,
)
from arena.ratings import update_standings
from competitions import notices
from competitions.entries.membership import rotate_invite
from competitions.models import (
    CompetitionMatch,
    TableStats,
    Tournament,
    TournamentEntry,
    TournamentStatus,
    Visibility,
)
from competitions.scheduling import Table, create_round_matches
from competitions.tables import seat_record
from competitions.tournaments.settings import TournamentSettings, checked_settings
from competitions.tournaments.timetable import next_round_after, round_waits
from games.base import GameError
from games.registry import get_game

log = logging.getLogger(__name__)

#: A tournament may schedule at most this many matches (a typo must not queue a million).
MAX_TOURNAMENT_MATCHES = 2000
#: The task of "Start" (``competitions.tasks``), sent by name: the tasks import this module,
#: never the reverse.
START_TASK = "competitions.start_tournament"
#: Matches that will not change any more (their status's ``is_done``, ``arena.contract``).
DONE_STATUSES = tuple(s.value for s in contract.MatchStatus if s.is_done)


def format_options(t: Tournament) -> FormatOptions:
    """The tournament's settings as ``arena.formats`` takes them (the rounds only for a
    format that takes them)."""
    return options_of(
        t.format,
        players=t.players_per_match,
        rounds=t.rounds,
        games_per_table=t.games_per_pairing,
        advance=t.advance,
        seed=t.seed,
    )


def options_of(fmt: str, *, rounds: int | None, **given: int) -> FormatOptions:
    """Options for format ``fmt`` from a form's or a row's fields: ``rounds`` dropped for a
    format that takes none (the knockout plays until one winner)."""
    takes = FORMATS[fmt].takes if fmt in FORMATS else {}
    return FormatOptions(rounds=rounds if "rounds" in takes else None, **given)


def create_tournament(
    *,
    organiser: User,
    game: Game,
    name: str,
    entrants: Sequence[BotVersion] = (),
    format: str = FORMAT_NAMES[0],
    players_per_match: int = 2,
    games_per_pairing: int = 1,
    rounds: int | None = None,
    advance: int = 1,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_matches: int | None = None,
    **more: Unpack[TournamentSettings],
) -> Tournament:
    """A draft tournament; checks the field, the format, the game's options and the entry,
    schedule and match settings (``tournament_settings``). A private one gets its audience
    and an invitation link at once."""
    if not name.strip():
        raise ValidationError("A tournament needs a name.")
    _check_format(game, format, players_per_match, games_per_pairing, rounds, max_matches)
    wrong = [v.label for v in entrants if v.bot.game_id != game.pk]
    if wrong:
        raise ValidationError(f"Not bots for {game.name}: {', '.join(wrong)}.")
    try:
        get_game(game.slug).check_options(dict(options or {}))
    except GameError as exc:
        raise ValidationError(str(exc)) from exc
    fields = checked_settings(more, players=players_per_match)
    cap = fields["max_entries"]
    if cap is not None and len(entrants) > cap:
        raise ValidationError(f"{len(entrants)} entrants are more than the cap of {cap}.")
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
            **fields,
        )
        t.entrants.set(entrants)
        if t.visibility == Visibility.PRIVATE:
            rotate_invite(t)  # makes its audience too
    return t


def _check_format(
    game: Game,
    format: str,
    players: int,
    games_per_pairing: int,
    rounds: int | None,
    max_matches: int | None,
) -> None:
    if format not in FORMATS:
        raise ValidationError(f"Unknown format {format!r}: one of {', '.join(FORMAT_NAMES)}.")
    if not game.min_players <= players <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players, not {players}."
        )
    if games_per_pairing < 1:
        raise ValidationError("Each pairing must play at least one game.")
    if max_matches is not None and max_matches < 1:
        raise ValidationError("A tournament must play at least one match.")
    try:  # the format's own rules (arena.formats.check_shape), written there once
        opts = FormatOptions(players, rounds=rounds, games_per_table=games_per_pairing)
        check_shape(format, opts, max_matches)
    except FormatError as exc:
        raise ValidationError(str(exc)) from exc


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
    check_start(tournament)
    transaction.on_commit(partial(send_by_name, START_TASK, [tournament.pk]))


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
        notices.tournament_started(t)  # before a field of byes only could end it at once
        matches = _schedule_from(t, rows, 0, dispatch=dispatch)
    tournament.refresh_from_db()
    return matches


def _schedule_from(
    t: Tournament,
    rows: dict[str, StandingRow],
    number: int,
    *,
    dispatch: bool,
    hold: bool = False,
    now: datetime | None = None,
) -> list[Match]:
    """Schedule round ``number`` (or the first later round that has matches: a round of byes
    only is recorded at once); finish the tournament when the format has no more rounds or the
    round robin's cut is reached. ``hold``: a round with matches waits (spaced rounds: beat
    plays it at ``next_round_at``, ``now`` + the spacing after the round scheduled ``now``).
    Inside the caller's transaction, the tournament locked."""
    opts = format_options(t)
    while True:
        left = (t.max_matches - t.scheduled_matches) if t.max_matches else None
        rnd = next_round(t.format, rows, number, opts) if left is None or left > 0 else None
        if rnd is None:
            _finish(t, rows)
            return []
        planned = rnd.matches if left is None else rnd.matches[:left]
        if planned and hold:  # resumed from the stored rows by play_waiting_round
            t.current_round = number - 1
            t.save(update_fields=["current_round"])
            return []
        t.current_round = number
        if planned:
            by_key = {str(e.version_id): e.version for e in _entries(t)}
            matches = create_round_matches(
                t,
                round=number,
                game=t.game,
                tables=[Table([by_key[k] for k in sm.bots], sm.seed) for sm in planned],
                options=t.options,
            )
            t.scheduled_matches += len(matches)
            t.next_round_at = next_round_after(t, now or timezone.now())
            t.save(update_fields=["current_round", "scheduled_matches", "next_round_at"])
            if dispatch:
                transaction.on_commit(partial(dispatch_matches, matches))
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
    t.next_round_at = None
    t.save(
        update_fields=[
            "status",
            "finished_at",
            "current_round",
            "scheduled_matches",
            "next_round_at",
        ]
    )
    notices.tournament_ended(t)


def tournament_match_ended(link: CompetitionMatch, seats: Sequence[Any] | None) -> None:
    """A match of a tournament was recorded (``seats`` given) or failed (None). Runs inside
    that match's recording transaction: the tournament's row is locked first, so two matches
    ending at once cannot both miss (or both make) the end of a round. Updates the entrants'
    statistics, and when it was the round's last match, records the round in the format's
    rows and schedules the next one (or finishes the tournament)."""
    assert link.tournament_id is not None  # the receiver sends tournament matches only
    # The tournament's row only, not the game's it joins: a session that goes silent while
    # recording must not hold the row every recording of the game needs.
    t = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(pk=link.tournament_id)
        .first()
    )
    if t is None or t.status != TournamentStatus.RUNNING:
        return
    if seats:
        _add_to_table(t, seats)
    if link.round != t.current_round:
        return  # a late re-run of an earlier round: its statistics count, the plan has moved on
    round_matches = list(
        t.matches.filter(competition_link__round=t.current_round)
        .prefetch_related("seats")
        .order_by("pk")
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
    hold = round_waits(t, timezone.now())  # spaced: the next round waits for its time
    _schedule_from(t, after, t.current_round + 1, dispatch=True, hold=hold)


def play_waiting_round(tournament_id: int, now: datetime, *, dispatch: bool = True) -> list[Match]:
    """Schedule a spaced tournament's waiting round once its ``next_round_at`` has come (beat:
    ``calendar.play_due_rounds``): from the stored rows, which hold the round that ended.
    Nothing while a match of the current round is still unfinished (its end schedules the
    round then), or when another worker has scheduled it already."""
    with transaction.atomic():
        t = (
            Tournament.objects.select_for_update(of=("self",))
            .select_related("game")
            .filter(pk=tournament_id, status=TournamentStatus.RUNNING, next_round_at__lte=now)
            .first()
        )
        if t is None or _round_unfinished(t):
            return []
        rows = {str(e.version_id): StandingRow.from_json(e.row) for e in _entries(t)}
        return _schedule_from(t, rows, t.current_round + 1, dispatch=dispatch, now=now)


def _round_unfinished(t: Tournament) -> bool:
    return (
        t.matches.filter(competition_link__round=t.current_round)
        .exclude(status__in=DONE_STATUSES)
        .exists()
    )


def _add_to_table(t: Tournament, seats: Sequence[Any]) -> None:
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
