"""The finished matches: their rows, seats and replays (stored as replay documents, or on the
match on schemas from before them). A match's competition, if any, comes from
:mod:`.competitions`; the others are casual games between random bots of a random game."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.apps import apps

from . import EPOCH
from .competitions import Competitions, Drawn
from .copying import RawJson, copy_rows, model, next_id
from .people import People

#: Real replays by (game slug, seats): the strong bots' short game first, random bots' long one.
Pool = dict[tuple[str, int], list[dict[str, Any]]]


@dataclass
class History:
    first_match: int
    matches: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    #: (match id, gzipped replay, its size unpacked) when replays have their own table
    documents: list[tuple[int, bytes, int]] = field(default_factory=list)
    #: matches played per version id
    played: Counter[int] = field(default_factory=Counter)


class _Replays:
    """Each pool replay serialised (or gzipped) once, however many matches reuse it."""

    def __init__(self) -> None:
        self.texts: dict[int, RawJson] = {}
        self.packed: dict[int, tuple[bytes, int]] = {}

    def text(self, replay: dict[str, Any]) -> RawJson:
        key = id(replay)
        if key not in self.texts:
            self.texts[key] = RawJson(json.dumps(replay, separators=(",", ":")))
        return self.texts[key]

    def gzipped(self, replay: dict[str, Any]) -> tuple[bytes, int]:
        key = id(replay)
        if key not in self.packed:
            raw = json.dumps(replay, separators=(",", ":")).encode()
            self.packed[key] = (gzip.compress(raw, 6), len(raw))
        return self.packed[key]


def _casual(games: list[Any], people: People, rng: random.Random) -> Drawn:
    g = games[rng.randrange(len(games))]
    lo, hi = max(2, g.min_players), min(4, g.max_players)
    n = rng.randint(lo, hi)
    return g, [people.latest[b] for b in rng.sample(people.by_game[g.pk], n)], {}


def _match_row(m: int, g: Any, created: datetime, replay: dict[str, Any], scores: list[int],
               ranks: list[int]) -> dict[str, Any]:  # fmt: skip
    return {
        "id": m,
        "game_id": g.pk,
        "seed": replay["seed"],
        "options": replay.get("options") or {},
        "time_control": {"start_ms": 5000, "move_ms": 1000, "bank_ms": 10000},
        "status": "finished",
        "error": "",
        "task_id": "",
        "result": {"scores": scores, "ranks": ranks, "reason": "game over"},
        "created_at": created,
        "started_at": created,
        "finished_at": created + timedelta(seconds=3),
        "duration_ms": 3000,
    }


def _seat_row(sid: int, m: int, k: int, v: int, scores: list[int], ranks: list[int],
              rng: random.Random) -> dict[str, Any]:  # fmt: skip
    return {
        "id": sid,
        "match_id": m,
        "seat": k,
        "bot_version_id": v,
        "score": scores[k],
        "rank": ranks[k],
        "status": "ok",
        "faults": [],
        "time_ms": rng.randint(5, 900),
        "stderr": "",
        "elo_before": 1500.0,
        "elo_after": 1500.0 + (len(scores) / 2 - ranks[k]) * 8,
    }


def draw_matches(games: list[Any], people: People, comps: Competitions, pool: Pool,
                 n_matches: int, rng: random.Random) -> History:  # fmt: skip
    """``n_matches`` finished matches spread over the history since ``EPOCH``."""
    Match, Seat = apps.get_model("matches.Match"), apps.get_model("matches.MatchSeat")
    on_match = model("matches.ReplayDocument") is None
    history, replays, sid = History(next_id(Match)), _Replays(), next_id(Seat)
    for i in range(n_matches):
        m = history.first_match + i
        created = EPOCH + timedelta(seconds=300 * i * (100_000 / n_matches))
        g, seats_v, columns = comps.draw(i, people.latest, rng) or _casual(games, people, rng)
        scores = [rng.randint(0, 40) for _ in seats_v]
        ranks = [1 + sum(o > s for o in scores) for s in scores]
        # Mostly the built-ins' short games; one in 20 a long game of random bots.
        replay = pool[(g.slug, len(seats_v))][1 if rng.random() < 0.05 else 0]
        history.matches.append(_match_row(m, g, created, replay, scores, ranks) | columns)
        if on_match:
            history.matches[-1]["replay"] = replays.text(replay)
        else:
            history.documents.append((m, *replays.gzipped(replay)))
        for k, v in enumerate(seats_v):
            history.seats.append(_seat_row(sid, m, k, v, scores, ranks, rng))
            sid += 1
        history.played.update(seats_v)
    return history


def copy_history(history: History) -> None:
    copy_rows(apps.get_model("matches.Match"), history.matches)
    copy_rows(apps.get_model("matches.MatchSeat"), history.seats)
    if (Doc := model("matches.ReplayDocument")) is not None:
        from matches.replays import document_row

        copy_rows(Doc, [document_row(m, gz, size) for m, gz, size in history.documents])
