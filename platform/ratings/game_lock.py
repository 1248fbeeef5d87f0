"""A per-game gate between recording rated matches and recalculating the game's ratings
(PostgreSQL advisory locks; on SQLite, which lets one writer in at a time, nothing).

Every rating of a match takes the game's gate *shared* (recordings never wait for each
other on it); a recalculation takes it *exclusive* for two short moments: to mark where the
history it reads ends (every rating change up to that id is then committed) and to install
its result (``ratings.recalculation``, "the swap"). See docs/ratings.md, "Recalculating"."""

from __future__ import annotations

from django.db import connection

#: The advisory locks' first key: "RATG" (the second is the game's id).
NAMESPACE = 0x52415447
#: A second namespace for "a recalculation of this game is running" (session-level).
RUNNING = 0x52415452


def share(game_id: int) -> None:
    """Inside a recording transaction: let no recalculation install between now and commit."""
    _lock("pg_advisory_xact_lock_shared", NAMESPACE, game_id)


def hold(game_id: int) -> None:
    """Inside a recalculation's transaction: wait for the game's ratings in flight to commit,
    and hold new ones back until this transaction ends."""
    _lock("pg_advisory_xact_lock", NAMESPACE, game_id)


def claim_run(game_id: int) -> bool:
    """Mark this session as the game's one running recalculation; False if another holds it."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_lock(%s, %s)", [RUNNING, game_id])
        return bool(cur.fetchone()[0])


def release_run(game_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_unlock(%s, %s)", [RUNNING, game_id])


def _lock(function: str, key: int, game_id: int) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cur:
        cur.execute(f"SELECT {function}(%s, %s)", [key, game_id])
