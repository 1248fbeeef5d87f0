"""A match between bot versions, its per-seat outcome, and its replay."""

from __future__ import annotations

from django.db import models


class MatchStatus(models.TextChoices):
    QUEUED = "queued", "Queued"  # created, task sent, not picked up yet
    RUNNING = "running", "Running"  # a worker has started it
    FINISHED = "finished", "Finished"  # the referee returned a result; rated
    ERROR = "error", "Error"  # the platform failed (not a bot fault); never rated


class SeatStatus(models.TextChoices):
    """How a seat ended, as the referee reports it (``SeatOutcome.status``)."""

    OK = "ok", "OK"
    TIMEOUT = "timeout", "Timed out"
    CRASHED = "crashed", "Crashed"
    ILLEGAL = "illegal", "Illegal moves"
    RETIRED = "retired", "Retired"


class Match(models.Model):
    """One match of one game. Seats are :class:`MatchSeat` rows, in seat order."""

    game = models.ForeignKey("catalog.Game", on_delete=models.PROTECT, related_name="matches")
    #: The match seed (fits a signed 64-bit column; see ``services.clamp_seed``).
    seed = models.BigIntegerField(default=0)
    #: Game options as given (defaults filled in by the engine).
    options = models.JSONField(default=dict, blank=True)
    #: Time control sent to the referee: ``{"start_ms", "move_ms", "bank_ms"}``.
    time_control = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.QUEUED, db_index=True
    )
    #: For ``error`` matches: what failed (a system failure, never a bot's fault).
    error = models.TextField(blank=True)
    #: The result as the referee returned it: ``{"scores", "ranks", "reason"}``.
    result = models.JSONField(null=True, blank=True)
    #: The versioned replay document from the referee.
    replay = models.JSONField(null=True, blank=True)
    tournament = models.ForeignKey(
        "competitions.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matches",
    )
    league = models.ForeignKey(
        "competitions.League",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches",
    )
    #: Round number inside a tournament or league (0 when standalone).
    round = models.PositiveIntegerField(default=0)
    task_id = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Wall-clock length of the match as the worker saw it.
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.game.slug}, {self.status})"

    @property
    def is_done(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ERROR)


class MatchSeat(models.Model):
    """One seat of a match: who sat there and how it went."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    #: 0-based seat index (turn order as the game defines it).
    seat = models.PositiveSmallIntegerField()
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="seats"
    )
    score = models.FloatField(null=True, blank=True)
    #: 1 = first; tied seats share a rank.
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=SeatStatus.choices, blank=True)
    #: Referee faults: ``[{"kind", "turn", "detail", ...}]``.
    faults = models.JSONField(default=list, blank=True)
    #: Thinking time used by this seat over the match.
    time_ms = models.PositiveIntegerField(null=True, blank=True)
    #: The bot's stderr (capped by the sandbox): shown only to its owner, staff and the
    #: tournament's organiser (bot-protocol.md), so it is kept out of the public replay.
    stderr = models.TextField(blank=True)
    elo_before = models.FloatField(null=True, blank=True)
    elo_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seat} {self.bot_version}"

    @property
    def elo_delta(self) -> float | None:
        if self.elo_before is None or self.elo_after is None:
            return None
        return self.elo_after - self.elo_before
