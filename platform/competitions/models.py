"""Tournaments (a fixed field of bot versions, scheduled once), leagues (every bot of a game,
a round every N hours) and ratings (Elo and OpenSkill per bot and game)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

#: A bot's rating is provisional until it has played this many rated matches.
PROVISIONAL_MATCHES = 10
ELO_START = 1500.0


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", "Draft"  # entrants may still change
    RUNNING = "running", "Running"  # matches scheduled
    FINISHED = "finished", "Finished"  # every match finished or errored


class Tournament(models.Model):
    """A round robin between fixed bot versions of one game."""

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
    #: Seats in each match (within the game's range).
    players_per_match = models.PositiveSmallIntegerField(default=2)
    #: How many matches each group of entrants plays (seats rotate between them).
    games_per_pairing = models.PositiveSmallIntegerField(default=1)
    #: Stop scheduling after this many matches (None: the whole round robin). The schedule
    #: goes cycle by cycle, so a cut still spreads games evenly between entrants.
    max_matches = models.PositiveIntegerField(null=True, blank=True)
    seed = models.BigIntegerField(default=0)
    options = models.JSONField(default=dict, blank=True)
    entrants = models.ManyToManyField("bots.BotVersion", related_name="tournaments", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    """A standing competition: every ``every_hours`` a round in which each bot of the game
    (its latest version) plays at most one match (``manage.py run_leagues`` plays due rounds)."""

    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=100)
    every_hours = models.PositiveIntegerField(default=24)
    players_per_match = models.PositiveSmallIntegerField(default=2)
    is_active = models.BooleanField(default=True)
    rounds_played = models.PositiveIntegerField(default=0)
    last_run_at = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["game__name", "name"]

    def __str__(self) -> str:
        return self.name


class Rating(models.Model):
    """The strength of one bot at its game: Elo and OpenSkill (Plackett-Luce)."""

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="ratings")
    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="ratings")
    elo = models.FloatField(default=ELO_START)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    #: The conservative OpenSkill estimate (mu - 3 sigma): what leaderboards sort by.
    ordinal = models.FloatField(default=0.0, db_index=True)
    matches_played = models.PositiveIntegerField(default=0)
    #: True until ``PROVISIONAL_MATCHES`` rated matches.
    provisional = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal", "-elo"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "game"], name="rating_unique_bot_game"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name}: Elo {self.elo:.0f}, ordinal {self.ordinal:.2f}"
