"""Tournaments (a fixed field of bot versions) and leagues (every bot of a game, a round every N
hours). Ratings live in the ``ratings`` app."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.deletion import CASCADE, Collector
from matches.models import Match

from arena.formats import FORMAT_NAMES, format_choices
from arena.ratings import DEFAULT_ELO, DEFAULT_MU, DEFAULT_SIGMA, Standing

#: The formats of ``arena.formats``, by the names it gives them.
TournamentFormat = models.TextChoices(  # type: ignore[call-overload]  # stubs lack the functional API
    "TournamentFormat",
    [(n.upper().replace("-", "_"), (n, n.replace("-", " ").capitalize())) for n in FORMAT_NAMES],
)


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", "Draft"  # entrants may still change
    RUNNING = "running", "Running"  # matches scheduled
    FINISHED = "finished", "Finished"  # every match finished or errored


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"  # everyone sees it, its matches and its table
    PRIVATE = "private", "Private"  # members only (its audience), on every page and the API


class EntryPolicy(models.TextChoices):
    ORGANISER = "organiser", "The organisers choose the entrants"
    ANYONE = "anyone", "Any user enters a bot of theirs"
    MEMBERS = "members", "Members (invited users) enter a bot of theirs"


class Tournament(models.Model):
    """A field of fixed bot versions of one game, played round by round in a format of
    ``arena.formats``: each round is scheduled when the last match of the one before it ends."""

    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_tournaments"
    )
    status = models.CharField(
        max_length=10,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
        db_index=True,
    )
    format = models.CharField(
        max_length=12, choices=format_choices, default=TournamentFormat.ROUND_ROBIN
    )
    #: Seats in each match (within the game's range).
    players_per_match = models.PositiveSmallIntegerField(default=2)
    #: How many matches each table plays in a round (seats rotate between them).
    games_per_pairing = models.PositiveSmallIntegerField(default=1)
    #: Swiss: how many rounds (None: enough to find a winner, ceil(log2 n)); round robin: a cut.
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Knockout of 3+ seats: how many of each table go through.
    advance = models.PositiveSmallIntegerField(default=1)
    #: Round robin: stop scheduling after this many matches (None: all of it). Rounds are
    #: played in order, so a cut still spreads games evenly between entrants.
    max_matches = models.PositiveIntegerField(null=True, blank=True)
    #: The round being played (0 is the first; -1 before the start).
    current_round = models.IntegerField(default=-1)
    #: Matches scheduled so far (counts toward ``max_matches``), and the number the format will
    #: play in all (known at the start: the progress bar's total).
    scheduled_matches = models.PositiveIntegerField(default=0)
    planned_matches = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(default=0)
    options = models.JSONField(default=dict, blank=True)
    entrants = models.ManyToManyField("bots.BotVersion", related_name="tournaments", blank=True)
    #: Who sees it. A private one has an ``audience`` (members and co-organisers), which its
    #: matches carry too. A public one may also have one: its co-organisers and invited members.
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC, db_index=True
    )
    audience = models.OneToOneField(
        "audiences.Audience",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament",
    )
    #: The secret of the invitation link (``/tournaments/join/<token>/``); rotating it voids
    #: the old link. Empty: no link.
    invite_token = models.CharField(max_length=64, blank=True, db_index=True)
    #: Who adds entrants while the tournament is a draft.
    entry_policy = models.CharField(
        max_length=10, choices=EntryPolicy.choices, default=EntryPolicy.ORGANISER
    )
    #: The entry window (users enter, swap and withdraw between these; null: no bound).
    entries_open_at = models.DateTimeField(null=True, blank=True)
    entries_close_at = models.DateTimeField(null=True, blank=True)
    #: Caps: entrants in all (null: none) and bots entered by one user.
    max_entries = models.PositiveIntegerField(null=True, blank=True)
    entries_per_user = models.PositiveSmallIntegerField(default=1)
    #: When it starts by itself (Celery beat); null: when an organiser presses Start.
    start_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: Swiss and knockout: hours between the starts of rounds (0: the next round as soon as
    #: the last one ends). ``next_round_at`` is when the waiting next round is due.
    round_spacing_hours = models.PositiveIntegerField(default=0)
    next_round_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: Why it did not start by itself at ``start_at`` (which is then cleared, so that beat
    #: does not try again every minute); empty once it starts or when nothing went wrong.
    start_problem = models.CharField(max_length=500, blank=True)
    #: The matches' time control (``arena.contract.TimeControl`` JSON; empty: the site default).
    time_control = models.JSONField(default=dict, blank=True)
    #: Whether its matches also move the public ladder's ratings (a private one's never do
    #: unless the organiser says so).
    rated_on_ladder = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def matches(self) -> models.QuerySet[Match]:
        """The tournament's matches (through their :class:`CompetitionMatch` links)."""
        return Match.objects.filter(competition_link__tournament=self)


class TableStats(models.Model):
    """A table line's statistics as ``arena.ratings.Standing`` keeps them (matches, wins, ranks,
    scores, faults, a fresh Elo and OpenSkill): stored by tournament entries and league rows."""

    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    faults = models.PositiveIntegerField(default=0)
    rank_sum = models.PositiveIntegerField(default=0)
    score_sum = models.FloatField(default=0.0)
    scored = models.PositiveIntegerField(default=0)
    rated = models.PositiveIntegerField(default=0)
    elo = models.FloatField(default=DEFAULT_ELO)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)

    #: The fields above, in ``Standing``'s names.
    STAT_FIELDS = (
        "matches",
        "wins",
        "faults",
        "rank_sum",
        "score_sum",
        "scored",
        "rated",
        "elo",
        "mu",
        "sigma",
    )

    class Meta:
        abstract = True

    def standing(self, bot: str) -> Standing:
        return Standing(bot=bot, **{f: getattr(self, f) for f in self.STAT_FIELDS})

    def take(self, standing: Standing) -> None:
        for f in self.STAT_FIELDS:
            setattr(self, f, getattr(standing, f))


class TournamentEntry(TableStats):
    """One entrant's stored standing, updated in the transaction that records each of its
    matches: the format's row (points, opponents, byes, elimination: ``arena.formats``) and the
    table's statistics (matches, wins, ranks, scores, faults, a fresh Elo and OpenSkill over
    this tournament only: ``arena.ratings.Standing``). Pages read these rows; no request
    recomputes them from the matches."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    version = models.ForeignKey("bots.BotVersion", on_delete=models.CASCADE, related_name="+")
    #: Seeding: 1 is the top seed (the order entrants were given in).
    seed = models.PositiveIntegerField()
    #: ``arena.formats.StandingRow.to_json()``.
    row = models.JSONField(default=dict)
    #: Position in the format's ranking (1 is first), refreshed after each round.
    position = models.PositiveIntegerField(null=True, blank=True)
    points = models.FloatField(default=0.0)
    eliminated = models.BooleanField(default=False)

    class Meta(TableStats.Meta):
        ordering = ["tournament", "position", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="entry_unique_version"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.version_id} ({self.points:g} pts)"


class League(models.Model):
    """A standing competition of every bot of a game (its current version), in seasons: a
    round every ``every_hours``, played by Celery beat (one periodic task per league, editable
    in the admin), each bot at most one match a round, tables paired Swiss-style from the
    season's stored standings (``arena.formats``)."""

    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organised_leagues",
    )
    every_hours = models.PositiveIntegerField(default=24)
    players_per_match = models.PositiveSmallIntegerField(default=2)
    #: Rounds in a season; when one ends the next starts (while the league is active).
    rounds_per_season = models.PositiveIntegerField(default=30)
    is_active = models.BooleanField(default=True)
    #: Rounds played over all seasons (the next round's number is this + 1).
    rounds_played = models.PositiveIntegerField(default=0)
    last_run_at = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField(default=0)
    #: The calendar: rounds fall at ``starts_at + k * every_hours`` (null: from the first run).
    starts_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game__name", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def matches(self) -> models.QuerySet[Match]:
        """The league's matches (through their :class:`CompetitionMatch` links)."""
        return Match.objects.filter(competition_link__league=self)


class Season(models.Model):
    """A league's season: rounds ``first_round`` .. ``first_round + rounds - 1``, between
    ``starts_at`` and ``ends_at`` (whichever comes first ends it)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    rounds = models.PositiveIntegerField()
    first_round = models.PositiveIntegerField()
    rounds_played = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.league.name}, season {self.number}"

    @property
    def is_over(self) -> bool:
        return self.finished_at is not None


class LeagueStanding(TableStats):
    """One bot's stored line of a league table, for one season (``season`` set) or all time
    (``season`` null), updated in the transaction that records each of its league matches.
    ``row`` is the pairing state (``arena.formats.StandingRow``: points, opponents, seats)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="standings"
    )
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    row = models.JSONField(default=dict)
    points = models.FloatField(default=0.0)
    ordinal = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "season", "bot"],
                name="leaguestanding_unique_season_bot",
                condition=models.Q(season__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["league", "bot"],
                name="leaguestanding_unique_alltime_bot",
                condition=models.Q(season__isnull=True),
            ),
        ]
        indexes = [
            models.Index(fields=["league", "season", "-points"], name="leaguestanding_table")
        ]

    def __str__(self) -> str:
        return f"{self.league_id}/{self.season_id or 'all'}: {self.bot_id} {self.points:g}"


def delete_with_matches(collector: Collector, field: Any, sub_objs: Any, using: str) -> None:
    """``on_delete`` of a link's tournament: deleting a tournament deletes its matches (each
    taking its link with it), as when the match itself held the tournament's key."""
    CASCADE(collector, field, sub_objs, using)
    matches = Match._base_manager.using(using).filter(pk__in=[link.match_id for link in sub_objs])
    collector.collect(
        list(matches), source=field.remote_field.model, nullable=False, fail_on_restricted=False
    )


class CompetitionMatch(models.Model):
    """Which tournament or league (exactly one) a match was played for, and in which round:
    the competition's side of the match, so that ``matches`` knows nothing of competitions
    (as ``ladder.LadderMatch`` is the ladder's side). Made with the match, in one transaction
    (``competitions.scheduling``)."""

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="competition_link"
    )
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=delete_with_matches,
        related_name="match_links",
        db_index=False,  # the (tournament, round) index leads with it
    )
    #: A deleted league leaves its matches, unlinked.
    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="match_links",
        db_index=False,  # the (league, ...) indexes lead with it
    )
    #: The tournament's round (0 is the first) or the league's round number (1 is the first).
    round = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=False, league__isnull=True)
                | models.Q(tournament__isnull=True, league__isnull=False),
                name="competitionmatch_one_competition",
            ),
        ]
        indexes = [
            # The end of a tournament's round, and its matches.
            models.Index(fields=["tournament", "round"], name="competitionmatch_t_round"),
            # A league's latest round's progress, and its latest matches.
            models.Index(fields=["league", "round"], name="competitionmatch_l_round"),
            models.Index(fields=["league", "-match"], name="competitionmatch_l_match"),
        ]

    def __str__(self) -> str:
        where = (
            f"tournament {self.tournament_id}" if self.tournament_id else f"league {self.league_id}"
        )
        return f"match {self.match_id}: {where}, round {self.round}"
