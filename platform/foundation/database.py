"""Database sessions with their bounds lifted where a command rightly needs it (the bounds
themselves are set for every connection by the settings: meeple/database.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def without_statement_timeout() -> Iterator[None]:
    """No statement limit on this connection for the block (PostgreSQL; elsewhere nothing):
    for a command whose statements may rightly run long on a large history. Locks and idle
    transactions stay bounded."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cur:
        cur.execute("SET statement_timeout = 0")
    try:
        yield
    finally:
        with connection.cursor() as cur:
            cur.execute("RESET statement_timeout")  # back to the connection's own bound
