"""A database mirror of the registered games, so that bots, matches and ratings can point at them.

The rule engines stay the source of truth (``games.registry``); ``services.sync_games`` copies
their static facts here.
"""

from __future__ import annotations

from django.db import models


class Game(models.Model):
    """One registered game (``games.registry``), synced by ``catalog.services.sync_games``."""

    #: The registry slug, e.g. ``trnd``; also the URL slug.
    slug = models.SlugField(max_length=50, unique=True)
    #: Display name, e.g. ``TRND``.
    name = models.CharField(max_length=100)
    #: One-line description for listings.
    summary = models.TextField(blank=True)
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField()
    #: The documented options, as ``Game.describe()["options"]`` lists them.
    options = models.JSONField(default=list, blank=True)
    #: Names of the game's built-in bots (``games.registry.bots(slug)``).
    builtin_bots = models.JSONField(default=list, blank=True)
    #: False when the game disappeared from the registry (kept for old matches).
    is_active = models.BooleanField(default=True)
    #: Counters kept as data, so that no page counts the history: the bots of this game
    #: (kept by the bots app when a bot is created or deleted) and its finished public matches
    #: (a private competition's are not counted; kept by the matches app in the transaction
    #: that records one). Both are rebuilt from scratch by
    #: ``matches.services.recount_game_counters``.
    bot_count = models.PositiveIntegerField(default=0)
    match_count = models.PositiveIntegerField(default=0)
    synced_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def players_label(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}–{self.max_players}"

    def clamp_players(self, wanted: int) -> int:
        """``wanted`` brought within the game's player range."""
        return max(self.min_players, min(self.max_players, wanted))
