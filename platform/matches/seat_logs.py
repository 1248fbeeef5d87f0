"""Bots' logs (their stderr, per decision): who may read them and how they are served.

A seat's stderr and its marks (``MatchSeat.stderr`` / ``stderr_marks``: the referee's ``logs``
and ``log_marks``, arena/bot-protocol.md) are its bot owner's and staff's only
(docs/permissions.md): never other users, an organiser who entered the bot, or anonymous
visitors. Whatever serves them says ``Cache-Control: private, no-store``.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse

from matches.models import Match, MatchSeat

#: Never kept by a shared cache, nor by the browser: a log is one person's.
PRIVATE = "private, no-store"


def may_read_stderr(user: Any, match: Match, seat: MatchSeat) -> bool:
    """A bot's stderr is its owner's and staff's only (docs/permissions.md): an organiser who
    enters someone's bot in a tournament does not get to read its logs. (``readable_seats``
    asks the database the same question.)"""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff or seat.bot_version.bot.owner_id == user.pk)


def readable_seats(user: Any, match_id: int) -> list[MatchSeat]:
    """The seats of ``match_id`` whose logs ``user`` may read, with their logs; no query for
    an anonymous visitor."""
    if not user.is_authenticated:
        return []
    seats = MatchSeat.objects.filter(match_id=match_id)
    if not user.is_staff:
        seats = seats.filter(bot_version__bot__owner_id=user.pk)
    return list(seats.order_by("seat").only("seat", "stderr", "stderr_marks"))


def logs_document(seats: list[MatchSeat]) -> dict[str, Any]:
    """``/matches/<pk>/logs.json``: ``{"seats": {"<seat>": {"text", "marks"}}}``."""
    return {
        "seats": {str(s.seat): {"text": s.stderr, "marks": s.stderr_marks or []} for s in seats}
    }


def with_logs(public: dict[str, Any], seats: list[MatchSeat]) -> dict[str, Any]:
    """The public replay with ``logs`` and ``log_marks`` as the referee writes them, holding
    only ``seats``' (the others ``""`` and ``[]``): the same file format as a local replay."""
    count = len(public.get("seats") or [])
    doc = dict(public)  # a shallow copy: the decoded document is shared by this process
    doc["logs"] = [""] * count
    doc["log_marks"] = [[] for _ in range(count)]
    for s in seats:
        if s.seat < count:
            doc["logs"][s.seat] = s.stderr
            doc["log_marks"][s.seat] = s.stderr_marks or []
    return doc


def private_json(doc: dict[str, Any], *, filename: str | None = None) -> HttpResponse:
    response = HttpResponse(json.dumps(doc, separators=(",", ":")), content_type="application/json")
    if filename:
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = PRIVATE
    return response


def checked_marks(raw: Any, logs: list[str]) -> list[list[list[int]]]:
    """Per seat of ``logs``, the well-formed ``[turn, start, end]`` marks of the referee's
    ``log_marks`` (absent in older outcomes): integers, in order, non-overlapping, inside
    that seat's text. Anything else is dropped, never stored."""
    seats = raw if isinstance(raw, list) else []
    out: list[list[list[int]]] = []
    for i, text in enumerate(logs):
        marks = seats[i] if i < len(seats) and isinstance(seats[i], list) else []
        kept: list[list[int]] = []
        last = 0
        for mark in marks:
            if not _is_mark(mark) or not last <= mark[1] < mark[2] <= len(text):
                continue
            kept.append([mark[0], mark[1], mark[2]])
            last = mark[2]
        out.append(kept)
    return out


def _is_mark(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    )
