"""A match between bot versions, its per-seat outcome, and its replay."""

from __future__ import annotations

from typing import Any

from django.db import models

from arena import contract
from matches import replay_cache

#: A match's life and a seat's ending, as ``arena.contract`` defines them (never restated here).
MatchStatus = models.TextChoices(  # type: ignore[call-overload]  # stubs lack the functional API
    "MatchStatus", [(s.name, (s.value, s.label)) for s in contract.MatchStatus]
)
SeatStatus = models.TextChoices(  # type: ignore[call-overload]  # stubs lack the functional API
    "SeatStatus", [(s.name, (s.value, s.label)) for s in contract.SeatStatus]
)


#: Why a match was played, as ``arena.contract`` defines it (the CLI's ``--kind`` reads it too).
MatchKind = models.TextChoices(  # type: ignore[call-overload]  # stubs lack the functional API
    "MatchKind", [(k.name, (k.value, k.label)) for k in contract.MatchKind]
)

#: Statuses in which a worker holds the match (under its claim's lease).
#: Why an ``error`` match failed (arena.contract.ErrorKind: its one definition).
ErrorKind = contract.ErrorKind
HELD = (MatchStatus.RUNNING, MatchStatus.RECORDING)


class Match(models.Model):
    """One match of one game. Seats are :class:`MatchSeat` rows, in seat order. Why it was
    played is its ``kind``; the app that made it keeps the rest on its own side (a tournament's
    or league's round: ``competitions.CompetitionMatch``; the ladder's: ``ladder.LadderMatch``),
    so this model points to no app above it."""

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
    kind = models.CharField(
        max_length=16, choices=MatchKind.choices, default=MatchKind.STANDALONE, db_index=True
    )
    #: Whether a finished match moves ratings (the ratings app applies the rest of the rule).
    rated = models.BooleanField(default=True)
    #: Who may see the match (its seats, replay, logs): null is everyone; a private
    #: competition's matches carry its audience (``audiences``), and every list hides them from
    #: whoever is not in it.
    audience = models.ForeignKey(
        "audiences.Audience",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=True,
    )
    #: How many times the match was sent to the workers; a task carries the number it was sent
    #: with, so a stale or duplicate delivery of an older send does nothing.
    attempts = models.PositiveSmallIntegerField(default=0)
    #: The host and process playing (or last played) it.
    worker = models.CharField(max_length=200, blank=True)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    #: While running or recording: when the sweeper may take it back (``matches.sweeper``).
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: While running or recording: until when the claim's worker is known alive. It renews
    #: the lease as it plays (``matches.lease``); a lapsed one is taken back (``matches.sweeper``).
    lease_until = models.DateTimeField(null=True, blank=True)
    #: For ``error`` matches: what failed (a system failure, never a bot's fault).
    error = models.TextField(blank=True)
    #: Which kind of failure that was (``ErrorKind``; "" before kinds were stored, or unknown):
    #: what the ladder and the site read, never the sentence.
    error_kind = models.CharField(
        max_length=16, blank=True, choices=[(k.value, k.value) for k in contract.ErrorKind]
    )
    #: The result as the referee returned it: ``{"scores", "ranks", "reason"}``.
    result = models.JSONField(null=True, blank=True)
    task_id = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Wall-clock length of the match as the worker saw it.
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        # Lists page by id (keyset): newest first, within a game or a status.
        indexes = [
            models.Index(fields=["game", "-id"], name="match_game_id"),
            models.Index(fields=["status", "-id"], name="match_status_id"),
            models.Index(fields=["game", "status", "-id"], name="match_game_status_id"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.game.slug}, {self.status})"

    @property
    def is_done(self) -> bool:
        return contract.MatchStatus(self.status).is_done

    @property
    def replay(self) -> dict[str, Any] | None:
        """The decoded replay document (its own table, :class:`ReplayDocument`), or None.
        One query, plus a decode unless this process decoded it recently."""
        return ReplayDocument.objects.document_of(self.pk) if self.pk else None


class ReplayDocuments(models.Manager["ReplayDocument"]):
    """Reading stored replays by match: the decoded copy comes from ``matches.replay_cache``."""

    def sha_of(self, match_id: int) -> str | None:
        return self.filter(match_id=match_id).values_list("sha256", flat=True).first()

    def data_of(self, sha: str, match_id: int | None = None) -> bytes | None:
        """The stored gzip bytes with this SHA-256 (of ``match_id``'s replay, when given)."""
        rows = self.filter(sha256=sha)
        if match_id is not None:
            rows = rows.filter(match_id=match_id)
        raw = rows.values_list("data", flat=True).first()
        return None if raw is None else bytes(raw)

    def document_of(self, match_id: int) -> dict[str, Any] | None:
        """The decoded replay of ``match_id``, or None when it has none."""
        sha = self.sha_of(match_id)
        if sha is None:
            return None
        return replay_cache.decoded(sha, lambda: self.data_of(sha, match_id))


class ReplayDocument(models.Model):
    """The replay of a match, as a document apart from the match row: gzip-compressed
    compact JSON, written once when the match is recorded and never changed. Lists and
    standings never read this table; the replay API serves ``data`` as it is stored."""

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="replay_document"
    )
    #: gzip of the compact JSON document.
    data = models.BinaryField()
    #: Length of the uncompressed JSON.
    size_bytes = models.PositiveIntegerField(default=0)
    #: Hex SHA-256 of ``data``: the ETag, and the key of the decoded copies in caches.
    sha256 = models.CharField(max_length=64)

    objects = ReplayDocuments()

    def __str__(self) -> str:
        return f"replay of match {self.match_id} ({self.size_bytes} bytes)"


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
    #: The bot's stderr (capped by the sandbox): shown only to its owner and staff
    #: (bot-protocol.md), so it is kept out of the public replay.
    stderr = models.TextField(blank=True)
    #: Which part of ``stderr`` each decision wrote: ``[[turn, start, end], ...]``, character
    #: offsets into ``stderr`` (the replay's ``log_marks`` for this seat; as private as it).
    stderr_marks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seat} {self.bot_version}"
