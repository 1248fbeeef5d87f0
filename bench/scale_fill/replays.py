"""Real replays for the filled matches: played once at the start of the run, then reused."""

from __future__ import annotations

import random
from typing import Any

from django.db import connection

from arena.contract import builtin_bot

from .copying import model


def play_demo_replays(rng: random.Random) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Real replays: for every game and seat count the sample uses, one match of the strong
    built-in bots (short) and one of random bots (long: TRND's run to the round cap)."""
    from arena.referee import run_match
    from games import registry

    pool: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for slug in registry.slugs():
        g = registry.get_game(slug)
        names = list(registry.bots(slug))
        lo, hi = max(2, g.min_players), min(4, g.max_players)
        for n in range(lo, hi + 1):
            for kind in ("strong", "random"):
                bots = [builtin_bot(names[-1] if kind == "strong" else "random")] * n
                out = run_match(slug, bots, seed=rng.randrange(1 << 30), sandbox="process")
                replay = dict(out.replay)
                replay.pop("logs", None)
                pool.setdefault((slug, n), []).append(replay)
    return pool


def longest_match() -> int:
    """The match with the longest replay (by decisions), found in the database."""
    Doc = model("matches.ReplayDocument")
    if Doc is not None:
        biggest = Doc._default_manager.order_by("-size_bytes", "pk")
        return biggest.values_list("match_id", flat=True)[0]
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id FROM matches_match WHERE replay IS NOT NULL "
            "ORDER BY jsonb_array_length(replay->'decisions') DESC, id LIMIT 1"
        )
        return cur.fetchone()[0]
