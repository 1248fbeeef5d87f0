"""Ratings: the current strength of each bot at its game, and every change a match made to it.

The rule of what gets rated, the Elo and OpenSkill maths and their constants live in
``arena.ratings``; this app stores their results and owns the rows.
"""

from __future__ import annotations

from django.db import models

from arena.ratings import DEFAULT_ELO, DEFAULT_MU, DEFAULT_SIGMA, Skill

#: A fresh rating's conservative OpenSkill estimate, mu - 3 sigma of the prior (0 up to
#: rounding: stored as the exact 0 so a new bot does not show -0.00).
DEFAULT_ORDINAL = round(Skill(DEFAULT_MU, DEFAULT_SIGMA).ordinal, 9) + 0.0


class Rating(models.Model):
    """The strength of one bot at its game: Elo and OpenSkill (Bradley-Terry full pairing)."""

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="ratings")
    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="ratings")
    elo = models.FloatField(default=DEFAULT_ELO)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    #: The conservative OpenSkill estimate (mu - 3 sigma): what leaderboards sort by.
    ordinal = models.FloatField(default=DEFAULT_ORDINAL, db_index=True)
    matches_played = models.PositiveIntegerField(default=0)
    #: True until ``arena.ratings.PROVISIONAL_MATCHES`` rated matches.
    provisional = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The table predates this app (it was competitions.Rating): keep its name and rows.
        db_table = "competitions_rating"
        ordering = ["-ordinal", "-elo"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "game"], name="rating_unique_bot_game"),
        ]
        indexes = [models.Index(fields=["game", "-ordinal", "-elo"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.bot.name}: Elo {self.elo:.0f}, ordinal {self.ordinal:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one seat's rating. Rows are created in the order the
    ratings moved (under the rating rows' locks), so ``id`` order is the order to replay."""

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(
        "catalog.Game", on_delete=models.CASCADE, related_name="rating_changes"
    )
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_before = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="ratingchange_unique_seat"),
        ]
        indexes = [models.Index(fields=["bot", "-id"], name="ratingchange_bot_recent")]

    def __str__(self) -> str:
        return (
            f"match {self.match_id} seat {self.seat}: {self.elo_before:.0f} -> {self.elo_after:.0f}"
        )

    @property
    def elo_delta(self) -> float:
        return self.elo_after - self.elo_before

    @property
    def ordinal_after(self) -> float:
        return Skill(self.mu_after, self.sigma_after).ordinal


# ---------------------------------------------------------------- counters that explain it
# Kept by ``ratings.stats`` as each rated match is recorded (never summed over the history
# when a page is read); ``ratings.stat_tally`` adds them up.


class SeatStat(models.Model):
    """One version's rated matches at one table size in one seat."""

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey("bots.BotVersion", on_delete=models.CASCADE, related_name="+")
    #: Seats at the table (the match's size).
    players = models.PositiveSmallIntegerField()
    #: 0-based, as everywhere.
    seat = models.PositiveSmallIntegerField()
    played = models.PositiveIntegerField(default=0)
    #: Matches it finished first in (a shared first place counts).
    firsts = models.PositiveIntegerField(default=0)
    #: The sum of its finishing places (average place = rank_sum / played).
    rank_sum = models.PositiveIntegerField(default=0)
    #: What these matches did to the bot's Elo, added up.
    elo_change = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["version", "players", "seat"], name="seatstat_unique_version_seat"
            ),
        ]
        indexes = [models.Index(fields=["bot"], name="seatstat_bot")]


class OpponentStat(models.Model):
    """One version's rated record against one other bot: who finished ahead, match by match."""

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey("bots.BotVersion", on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    met = models.PositiveIntegerField(default=0)
    ahead = models.PositiveIntegerField(default=0)
    level = models.PositiveIntegerField(default=0)
    behind = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["version", "opponent"], name="opponentstat_unique_version_opponent"
            ),
        ]
        indexes = [models.Index(fields=["bot"], name="opponentstat_bot")]


class VersionPeriod(models.Model):
    """The bot's Elo over the rated matches one of its versions played (its active period)."""

    version = models.OneToOneField(
        "bots.BotVersion", primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    matches = models.PositiveIntegerField(default=0)
    first_at = models.DateTimeField(null=True, blank=True)
    last_at = models.DateTimeField(null=True, blank=True)
    elo_start = models.FloatField(default=DEFAULT_ELO)
    elo_end = models.FloatField(default=DEFAULT_ELO)
    elo_high = models.FloatField(default=DEFAULT_ELO)
    elo_low = models.FloatField(default=DEFAULT_ELO)
    #: Elo after every ``stride``-th match of the version, at most ``stat_tally.MAX_POINTS``.
    points = models.JSONField(default=list, blank=True)
    stride = models.PositiveIntegerField(default=1)

    class Meta:
        indexes = [models.Index(fields=["bot"], name="versionperiod_bot")]
