"""A round-robin tournament: the schedule from :mod:`arena.schedule`, every match through the
referee (in parallel worker processes with ``jobs > 1``), standings from :mod:`arena.ratings`.

Standings are folded in schedule order, not completion order, so the same call gives the same
table whatever ``jobs`` is."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.botspec import parse_bot_spec
from arena.outcome import MatchOutcome
from arena.ratings import MatchRecord, Standings, standings
from arena.referee import TimeControl, run_match
from arena.replay import save_replay
from arena.schedule import ScheduledMatch, round_robin
from games import registry
from games.base import GameError


@dataclass
class Tournament:
    game: str
    bots: list[str]
    players: int
    schedule: list[ScheduledMatch]
    outcomes: list[MatchOutcome]
    standings: Standings

    @property
    def errors(self) -> list[MatchOutcome]:
        return [o for o in self.outcomes if o.status != "finished"]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": self.bots,
            "players": self.players,
            "matches": [
                {
                    **m.to_json(),
                    "match_id": o.match_id,
                    "status": o.status,
                    "error": o.error,
                    "ranks": [s.rank for s in o.seats],
                    "scores": [s.score for s in o.seats],
                    "seat_status": [s.status for s in o.seats],
                }
                for m, o in zip(self.schedule, self.outcomes, strict=True)
            ],
            "standings": self.standings.to_json(),
        }


def table_size(game: str, bots: int, players: int | None) -> int:
    """Seats per match: ``players`` if given, else as many of the bots as the game seats."""
    g = registry.get_game(game)
    n = min(bots, g.max_players) if players is None else players
    if not g.min_players <= n <= g.max_players:
        span = f"{g.min_players} to {g.max_players}"
        if players is None:
            raise GameError(
                f"{game} is played by {span} players: a tournament needs at least "
                f"{g.min_players} bots, got {bots}"
            )
        raise GameError(f"{game} is played by {span} players, not {n}")
    return n


def plan_tournament(
    game: str,
    bots: list[str],
    *,
    games: int = 1,
    seed: int = 0,
    players: int | None = None,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
) -> tuple[int, list[ScheduledMatch]]:
    """Check everything before any match starts; returns the table size and the schedule."""
    for b in bots:
        parse_bot_spec(b, game)
    labels = bot_labels(bots)
    registry.get_game(game).check_options(dict(options or {}))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    n = table_size(game, len(bots), players)
    return n, round_robin(labels, n, games_per_pairing=games, seed=seed)


def bot_labels(bots: list[str]) -> list[str]:
    """Names for the standings: the spec itself, and ``SPEC#2``, ``SPEC#3``... for repeats
    (so that, say, three copies of one built-in bot can fill a three-seat game)."""
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return out


def _record(match: ScheduledMatch, outcome: MatchOutcome) -> MatchRecord:
    """The ratings' view of a match, under the tournament's bot labels."""
    if not outcome.ok:
        return MatchRecord(bots=(), ranks=(), status="error", id=outcome.match_id)
    return MatchRecord(
        bots=match.bots,
        ranks=tuple(s.rank for s in outcome.seats),  # type: ignore[misc]
        scores=tuple(s.score for s in outcome.seats),  # type: ignore[misc]
        seat_status=tuple(s.status for s in outcome.seats),
        id=outcome.match_id,
    )


def _play_one(args: dict[str, Any]) -> MatchOutcome:
    """One match in a worker process (a module-level function, so it pickles)."""
    return run_match(**args)


def run_tournament(
    game: str,
    bots: list[str],
    *,
    games: int = 1,
    seed: int = 0,
    players: int | None = None,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    time: TimeControl | None = None,
    sandbox: str | None = None,
    fault_limit: int = 3,
    out_dir: str | Path | None = None,
    on_match: Callable[[int, MatchOutcome], None] | None = None,
) -> Tournament:
    """Play a round robin of ``bots`` (specs as for ``run_match``): every combination of
    ``players`` of them ``games`` times, seats rotated fairly. ``on_match(i, outcome)`` is
    called as each match ends (for a progress bar). With ``out_dir``, every replay is written
    to ``out_dir/replays/`` and the table to ``out_dir/standings.json``."""
    n, schedule = plan_tournament(
        game, bots, games=games, seed=seed, players=players, jobs=jobs, options=options
    )
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        (out / "replays").mkdir(parents=True, exist_ok=True)
    spec_of = dict(zip(bot_labels(bots), bots, strict=True))
    calls: list[dict[str, Any]] = [
        {
            "game": game,
            "bots": [spec_of[label] for label in m.bots],
            "seed": m.seed,
            "options": options,
            "time": time,
            "sandbox": sandbox,
            "fault_limit": fault_limit,
            "match_id": f"t{seed}-{i:05d}",
        }
        for i, m in enumerate(schedule)
    ]
    outcomes: list[MatchOutcome | None] = [None] * len(calls)

    def done(i: int, outcome: MatchOutcome) -> None:
        outcomes[i] = outcome
        if out is not None:
            save_replay(outcome.replay, out / "replays" / f"{i:05d}-{outcome.match_id}.json")
        if on_match is not None:
            on_match(i, outcome)

    if jobs == 1:
        for i, call in enumerate(calls):
            done(i, run_match(**call))
    else:
        _run_parallel(calls, jobs, done)
    finished = [o for o in outcomes if o is not None]
    assert len(finished) == len(schedule)
    records = [_record(m, o) for m, o in zip(schedule, finished, strict=True)]
    table = standings(records, bots=bot_labels(bots))
    result = Tournament(game, bot_labels(bots), n, schedule, finished, table)
    if out is not None:
        (out / "standings.json").write_text(json.dumps(result.to_json(), indent=1) + "\n")
    return result


def _run_parallel(
    calls: list[dict[str, Any]], jobs: int, done: Callable[[int, MatchOutcome], None]
) -> None:
    # "spawn": worker processes start clean, without copies of this process's threads.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        pending: dict[Future[MatchOutcome], int] = {}
        try:
            for i, call in enumerate(calls):
                pending[pool.submit(_play_one, call)] = i
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    done(pending.pop(f), f.result())
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
