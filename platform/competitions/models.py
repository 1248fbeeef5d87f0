"""Tournaments (a fixed field of bot versions) and leagues (every bot of a game, a round every N
hours). Ratings live in the ``ratings`` app."""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
