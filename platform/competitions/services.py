"""Writing competitions: tournaments and league rounds, and what they do when a match ends."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from bots.models import Bot, BotVersion
from catalog.models import Game
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from matches.models import Match, MatchStatus
from matches.services import clamp_seed, create_match, dispatch_match

from arena.schedule import ScheduleError, league_rounds, round_robin
from competitions.models import League, Tournament, TournamentStatus

log = logging.getLogger(__name__)

#: A tournament may schedule at most this many matches (a typo must not queue a million).
MAX_TOURNAMENT_MATCHES = 2000


# ------------------------------------------------------------------------------ tournaments


def create_tournament(
    *,
    organiser: AbstractBaseUser,
    game: Game,
    name: str,
    entrants: Sequence[BotVersion],
    players_per_match: int = 2,
    games_per_pairing: int = 1,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_matches: int | None = None,
) -> Tournament:
    """A draft tournament; checks the field against the game's rules."""
    if not name.strip():
        raise ValidationError("A tournament needs a name.")
    if not game.min_players <= players_per_match <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players, not {players_per_match}."
        )
    if games_per_pairing < 1:
        raise ValidationError("Each pairing must play at least one game.")
    if max_matches is not None and max_matches < 1:
        raise ValidationError("A tournament must play at least one match.")
    wrong = [v.label for v in entrants if v.bot.game_id != game.pk]
    if wrong:
        raise ValidationError(f"Not bots for {game.name}: {', '.join(wrong)}.")
    with transaction.atomic():
        t = Tournament.objects.create(
            organiser=organiser,
            game=game,
            name=name.strip(),
            players_per_match=players_per_match,
            games_per_pairing=games_per_pairing,
            seed=clamp_seed(seed),
            options=dict(options or {}),
            max_matches=max_matches,
        )
        t.entrants.set(entrants)
    return t


def start_tournament(tournament: Tournament, *, dispatch: bool = True) -> list[Match]:
    """Schedule every match of a draft tournament (status ``running``) and, unless
    ``dispatch=False``, send them to the workers once the transaction commits."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.DRAFT:
            raise ValidationError(f"{t.name} has already been started.")
        entrants = list(t.entrants.select_related("bot").order_by("pk"))
        if len(entrants) < t.players_per_match:
            raise ValidationError(
                f"{t.name} needs at least {t.players_per_match} entrants (it has {len(entrants)})."
            )
        by_key = {str(v.pk): v for v in entrants}
        try:
            schedule = round_robin(list(by_key), t.players_per_match, t.games_per_pairing, t.seed)
        except ScheduleError as exc:
            raise ValidationError(str(exc)) from exc
        if t.max_matches:
            schedule = schedule[: t.max_matches]
        if len(schedule) > MAX_TOURNAMENT_MATCHES:
            raise ValidationError(
                f"{t.name} would play {len(schedule)} matches; the limit is "
                f"{MAX_TOURNAMENT_MATCHES}. Fewer entrants or games per pairing."
            )
        matches = [
            create_match(
                game=t.game,
                versions=[by_key[k] for k in sm.bots],
                seed=sm.seed,
                options=t.options,
                tournament=t,
                round=sm.round,
            )
            for sm in schedule
        ]
        t.status = TournamentStatus.RUNNING
        t.started_at = timezone.now()
        t.save(update_fields=["status", "started_at"])
        if dispatch:
            for m in matches:
                transaction.on_commit(lambda m=m: dispatch_match(m))
    tournament.refresh_from_db()
    return matches


def finish_tournament_if_done(tournament_id: int) -> bool:
    """Mark a running tournament finished once none of its matches is still to be played.
    Called when one of its matches ends, in that match's transaction: the tournament's row is
    locked first, so two matches ending at once cannot both miss (or both make) the end."""
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None or t.status != TournamentStatus.RUNNING:
        return False
    pending = Match.objects.filter(tournament_id=tournament_id).exclude(
        status__in=[MatchStatus.FINISHED, MatchStatus.ERROR]
    )
    if pending.exists():
        return False
    t.status = TournamentStatus.FINISHED
    t.finished_at = timezone.now()
    t.save(update_fields=["status", "finished_at"])
    return True


# ---------------------------------------------------------------------------------- leagues


#: A league plays at least once a month and at most once an hour.
LEAGUE_MAX_EVERY_HOURS = 24 * 31


def create_league(
    *,
    game: Game,
    name: str,
    every_hours: int = 24,
    players_per_match: int = 2,
    seed: int = 0,
    is_active: bool = True,
) -> League:
    """A league of every bot of ``game``; its first round is due at once (``run_leagues``)."""
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
    return League.objects.create(
        game=game,
        name=name.strip(),
        every_hours=every_hours,
        players_per_match=players_per_match,
        seed=clamp_seed(seed),
        is_active=is_active,
    )


def due_leagues(now: Any = None) -> list[League]:
    """Active leagues whose next round is due."""
    now = now or timezone.now()
    return [
        lg
        for lg in League.objects.filter(is_active=True).select_related("game")
        if lg.last_run_at is None or lg.last_run_at + timedelta(hours=lg.every_hours) <= now
    ]


def run_league_round(league: League, *, dispatch: bool = True) -> list[Match]:
    """Schedule the league's next round: every bot of the game (its latest version) plays at
    most one match; ``arena.schedule.league_rounds`` balances games played, opponents and
    seats over the league's history. Fewer bots than seats: no match, the round still counts."""
    with transaction.atomic():
        lg = League.objects.select_for_update().select_related("game").get(pk=league.pk)
        versions = {
            str(b.pk): v
            for b in Bot.objects.filter(game=lg.game).order_by("pk")
            if (v := b.latest_version()) is not None
        }
        players = lg.game.clamp_players(lg.players_per_match)
        round_no = lg.rounds_played + 1
        schedule = (
            league_rounds(list(versions), players, round_no, lg.seed)[-1]
            if len(versions) >= players
            else []
        )
        matches = [
            create_match(
                game=lg.game,
                versions=[versions[k] for k in sm.bots],
                seed=sm.seed,
                league=lg,
                round=round_no,
            )
            for sm in schedule
        ]
        lg.rounds_played = round_no
        lg.last_run_at = timezone.now()
        lg.save(update_fields=["rounds_played", "last_run_at"])
        if dispatch:
            for m in matches:
                transaction.on_commit(lambda m=m: dispatch_match(m))
    league.refresh_from_db()
    return matches
