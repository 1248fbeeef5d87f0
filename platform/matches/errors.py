"""What a match's public error may say. ``Match.error`` is shown to everyone, so it is one of
a few fixed sentences, never an exception's text, a server path or a member of a private zip;
the detail goes to the worker's log for the staff.

The kinds whose text is public by construction keep it (``arena.contract.ErrorKind.is_public``):
a refusal (``arena.tasks.play``: "match refused: " and the refusing error's public text), the
time limit ("the match took over N s") and the platform's own sentences below.
"""

from __future__ import annotations

import logging

from arena.contract import ErrorKind

log = logging.getLogger(__name__)

#: Building the match failed for a reason that is not the database's (a version's row gone).
SETUP_FAILED = "The match could not be set up (a platform error; the staff have the details)."
#: The referee failed (an engine or sandbox error) or gave something the site cannot record.
PLAY_FAILED = "The match could not be played (a platform error; the staff have the details)."


def took_too_long(limit_s: float) -> str:
    """The time limit's public sentence (the referee's own wording, see arena/referee.py)."""
    return f"the match took over {limit_s:.0f} s"


def public_error(error: str | None, kind: ErrorKind, *, match_id: int | None = None) -> str:
    """``error`` if its kind's text is public, else ``PLAY_FAILED`` (``error`` is logged)."""
    text = (error or "").strip()
    if text and kind.is_public:
        return text
    log.error("match %s: %s", match_id, text or "failed without a message")
    return PLAY_FAILED
