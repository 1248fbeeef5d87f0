"""Bounds on every wait of a PostgreSQL connection: a statement, a lock, a transaction left idle
by a client that went silent (a network partition, a stopped process) and a dead peer on the
socket. Without them one silent session holding a row lock stops every transaction that needs
the row, with no end (deploy/SCALING.md, "Bounded waits"). What no socket option can see (a
peer that acknowledges every byte and never answers) a worker's watchdog bounds
(``arena.worker_watchdog``).

Each bound is read from the environment (milliseconds or seconds as named; 0 turns one off).
Options already in ``DATABASE_URL`` (``?options=-c%20lock_timeout%3D500``) come after these, so
the URL wins.
"""

from __future__ import annotations

from typing import Any

from meeple.env import env_int

#: (setting, environment variable, default): server settings for each session, in ms.
SESSION_TIMEOUTS = (
    # Above any statement the site runs on a large history (the heaviest pages, a league
    # round's inserts, recalculate_ratings' batches): it stops runaway queries only.
    ("statement_timeout", "ARENA_DB_STATEMENT_TIMEOUT_MS", 60_000),
    # A transaction waiting on a row lock gives up and retries (a worker records with backoff)
    # instead of queueing behind a holder that may never come back.
    ("lock_timeout", "ARENA_DB_LOCK_TIMEOUT_MS", 10_000),
    # The server ends a session idle inside a transaction (its client silent) and so frees its
    # locks; the site's transactions never idle for more than milliseconds.
    ("idle_in_transaction_session_timeout", "ARENA_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 60_000),
)

#: (libpq parameter, environment variable, default): the client's side of the socket, in s
#: unless named otherwise.
SOCKET_BOUNDS = (
    ("connect_timeout", "ARENA_DB_CONNECT_TIMEOUT_S", 10),
    # A server that stopped answering is found dead in idle + interval x count seconds.
    ("keepalives_idle", "ARENA_DB_KEEPALIVES_IDLE_S", 30),
    ("keepalives_interval", "ARENA_DB_KEEPALIVES_INTERVAL_S", 10),
    ("keepalives_count", "ARENA_DB_KEEPALIVES_COUNT", 3),
    # In milliseconds (libpq's unit): bytes sent and not acknowledged for this long (a peer gone
    # mid-request, where keepalives, sent only on an idle socket, never start) end the
    # connection with an error instead of a wait for good.
    ("tcp_user_timeout", "ARENA_DB_TCP_USER_TIMEOUT_MS", 30_000),
)


def bounded_options(options: dict[str, Any] | None = None) -> dict[str, Any]:
    """PostgreSQL connection ``OPTIONS`` with the bounds above merged into ``options`` (the
    ones ``dj_database_url`` read from the URL, which keep precedence)."""
    merged = dict(options or {})
    server = " ".join(f"-c {name}={env_int(var, ms)}" for name, var, ms in SESSION_TIMEOUTS)
    merged["options"] = f"{server} {merged['options']}" if merged.get("options") else server
    merged.setdefault("keepalives", 1)
    for name, var, default in SOCKET_BOUNDS:
        merged.setdefault(name, env_int(var, default))
    return merged
