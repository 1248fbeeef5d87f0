"""Reading what a worker sent through Django's file email backend."""

from __future__ import annotations

from pathlib import Path

# The file backend ends every message with this line; a message is whole once it is written.
_END = "-" * 79 + "\n"


def sent(outbox: Path, at_least: int) -> list[str] | None:
    """The whole emails in ``outbox``, once there are at least ``at_least``; else None.

    Counted by message, not by file: the backend names a file per backend instance and may
    append several sessions to one file, and a file may exist before its message is written."""
    text = "".join(f.read_text() for f in sorted(outbox.glob("*.log"))) if outbox.is_dir() else ""
    whole = text.split(_END)[:-1]  # what follows the last end line is not whole yet
    emails = [e for e in whole if "To: " in e]
    return emails if len(emails) >= at_least else None
