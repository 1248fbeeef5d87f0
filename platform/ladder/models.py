"""The living ladder: who is on each game's ladder and why each ladder-made match exists.

A bot joins its game's ladder (:class:`LadderEntry`) when a version of it qualifies (or, for
built-ins, at once). The matchmaker seats entries; every match it, a qualification or a
challenge makes is tagged with a :class:`LadderMatch` row, so the ladder never needs to scan
the match history: in-flight matches are found through ``Match.status`` (indexed).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from matches.models import MatchKind

#: Kinds of match the ladder makes (``matches.models.MatchKind``); only ladder ones are rated.
LADDER_KINDS = [
    (MatchKind.QUALIFICATION.value, MatchKind.QUALIFICATION.label),
    (MatchKind.LADDER.value, MatchKind.LADDER.label),
    (MatchKind.CHALLENGE.value, MatchKind.CHALLENGE.label),
]


class LadderMatch(models.Model):
    """Why a match was made (one row per ladder, qualification or challenge match)."""

    match = models.OneToOneField(
        "matches.Match", primary_key=True, on_delete=models.CASCADE, related_name="ladder"
    )
    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=LADDER_KINDS)
    #: For qualification: the version being qualified.
    version = models.ForeignKey(
        "bots.BotVersion",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="qualifications",
    )
    #: For challenges: who asked (the daily limit counts these rows).
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="challenges",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["game", "kind"], name="laddermatch_game_kind"),
            models.Index(fields=["challenger", "created_at"], name="laddermatch_challenges"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} match {self.match_id}"


class LadderEntry(models.Model):
    """One bot on its game's ladder: placement owed, fault streak, suspension, last match."""

    bot = models.OneToOneField(
        "bots.Bot", primary_key=True, on_delete=models.CASCADE, related_name="ladder_entry"
    )
    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="+")
    #: Placement matches its current version still owes (served before everyone else).
    placement_owed = models.PositiveSmallIntegerField(default=0)
    #: Ladder matches in a row that ended in a fault of its (crashed, timed out, retired).
    fault_streak = models.PositiveSmallIntegerField(default=0)
    #: Set when the fault streak reached the limit; a new active version lifts it.
    suspended_at = models.DateTimeField(null=True, blank=True)
    suspended_reason = models.TextField(blank=True)
    #: The version whose faults suspended it: pinning another qualified version lifts the
    #: suspension (``ladder.pinning``), pinning this one does not.
    suspended_version = models.ForeignKey(
        "bots.BotVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ladder_matches = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    last_match_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "bot"]
        indexes = [models.Index(fields=["game", "suspended_at"], name="ladderentry_game")]
        verbose_name_plural = "ladder entries"

    def __str__(self) -> str:
        return f"{self.bot_id} on {self.game_id}"

    @property
    def is_suspended(self) -> bool:
        return self.suspended_at is not None

    @property
    def in_placement(self) -> bool:
        return self.placement_owed > 0


class LadderState(models.Model):
    """Per game: when the matchmaker last ran (its row is the tick's lock)."""

    game = models.OneToOneField(
        "catalog.Game", primary_key=True, on_delete=models.CASCADE, related_name="ladder_state"
    )
    last_tick_at = models.DateTimeField(null=True, blank=True)
    ticks = models.PositiveIntegerField(default=0)
    last_sandbox_retry_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ladder of {self.game_id}"
