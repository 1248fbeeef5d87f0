"""A tournament on the command line: the format (:mod:`arena.formats`: round robin, Swiss,
knockout) decides each round from the standings, every match goes through the referee (in
parallel worker processes with ``jobs > 1``), the results update the standings, and the format
is asked for the next round. The same pure functions drive the platform's tournaments.

Results are folded in schedule order, not completion order, so the same call gives the same
tournament whatever ``jobs`` is."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import formats
from arena.botspec import parse_bot_spec
from arena.contract import FAULT_LIMIT
from arena.formats import FormatOptions, Result, Round, StandingRow
from arena.outcome import MatchOutcome
from arena.ratings import MatchRecord, Standings, standings
from arena.referee import TimeControl, run_match
from arena.replay import save_replay
from arena.schedule import ScheduledMatch
from games import registry
from games.base import GameError


@dataclass
class Tournament:
    """A played tournament: ``schedule[i]`` was played with ``outcomes[i]``; ``rounds`` as the
    format planned them; ``rows`` the format's standings (points, byes, Buchholz, who went
    out); ``standings`` the ratings table (Elo, OpenSkill) over the same matches."""

    game: str
    bots: list[str]
    players: int
    schedule: list[ScheduledMatch]
    outcomes: list[MatchOutcome]
    standings: Standings
    format: str = "round-robin"
    options: FormatOptions = field(default_factory=FormatOptions)
    rounds: list[Round] = field(default_factory=list)
    rows: dict[str, StandingRow] = field(default_factory=dict)

    @property
    def errors(self) -> list[MatchOutcome]:
        return [o for o in self.outcomes if o.status != "finished"]

    @property
    def ranking(self) -> list[StandingRow]:
        """The format's order: points (Swiss, round robin) or how far each got (knockout)."""
        return formats.ranking(self.format, self.rows)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": self.bots,
            "players": self.players,
            "format": self.format,
            "format_options": self.options.to_json(),
            "rounds": [
                {
                    "number": r.number,
                    "tables": [list(t.bots) for t in r.tables],
                    "byes": list(r.byes),
                }
                for r in self.rounds
            ],
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
            "ranking": [r.to_json() for r in self.ranking],
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


@dataclass(frozen=True)
class Plan:
    """What :func:`plan_tournament` checked: the format, its options, the table size and the
    matches expected (exact unless a knockout table has to be played again)."""

    format: str
    options: FormatOptions
    players: int
    rounds: int
    matches: int


def plan_tournament(
    game: str,
    bots: list[str],
    *,
    format: str = "round-robin",
    rounds: int | None = None,
    games: int = 1,
    seed: int = 0,
    players: int | None = None,
    min_players: int | None = None,
    advance: int = 1,
    tie_replays: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
) -> Plan:
    """Check everything before any match starts: bots, game options, the table size in the
    game's range and the format's own rules. ``players`` defaults to as many bots as the game
    seats for a round robin, and to the game's smallest table of two or more for Swiss and
    knockout. Swiss and knockout tables may shrink down to ``min_players`` (default: the
    game's smallest table of two or more) so that the field splits evenly; a round robin
    plays tables of exactly ``players``."""
    for b in bots:
        parse_bot_spec(b, game)
    registry.get_game(game).check_options(dict(options or {}))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    g = registry.get_game(game)
    if players is None and format != "round-robin":
        # Swiss and knockout meet at the game's smallest real table: more rounds, more
        # different opponents; "as many as the game seats" would put a small field at one table.
        players = max(2, g.min_players)
    n = table_size(game, len(bots), players)
    if min_players is None:
        smallest = n if format == "round-robin" else min(n, max(2, g.min_players))
    else:
        smallest = min_players
        if format == "round-robin":
            raise GameError("a round robin plays full tables: it takes no min_players")
        if not g.min_players <= smallest <= n:
            raise GameError(
                f"min_players must be from {g.min_players} (the game's least) to the table "
                f"size {n}, got {smallest}"
            )
    opts = FormatOptions(
        players=n,
        min_players=smallest,
        rounds=rounds,
        games_per_table=games,
        advance=advance,
        seed=seed,
        tie_replays=tie_replays,
    )
    total = formats.total_matches(format, len(bots), opts)
    return Plan(format, opts, n, formats.total_rounds(format, len(bots), opts), total)


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


def _result(match: ScheduledMatch, outcome: MatchOutcome) -> Result:
    """The format's view of a match: ranks by seat, or none for a system error."""
    if not outcome.ok:
        return Result(match.bots, None)
    return Result(match.bots, tuple(int(s.rank) for s in outcome.seats))  # type: ignore[arg-type]


def _play_one(args: dict[str, Any]) -> MatchOutcome:
    """One match in a worker process (a module-level function, so it pickles)."""
    return run_match(**args)


def run_tournament(
    game: str,
    bots: list[str],
    *,
    format: str = "round-robin",
    rounds: int | None = None,
    games: int = 1,
    seed: int = 0,
    players: int | None = None,
    min_players: int | None = None,
    advance: int = 1,
    tie_replays: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    time: TimeControl | None = None,
    sandbox: str | None = None,
    fault_limit: int = FAULT_LIMIT,
    out_dir: str | Path | None = None,
    on_match: Callable[[int, MatchOutcome], None] | None = None,
    on_round: Callable[[Round], None] | None = None,
) -> Tournament:
    """Play a tournament of ``bots`` (specs as for ``run_match``) in ``format``, round by
    round: each round as the format plans it from the standings so far, ``games`` matches at
    each table with seats rotated. ``on_round(round)`` is called as each round starts and
    ``on_match(i, outcome)`` as each match ends (for a progress bar). With ``out_dir``, every
    replay is written to ``out_dir/replays/`` and the tournament to
    ``out_dir/standings.json``."""
    plan = plan_tournament(
        game,
        bots,
        format=format,
        rounds=rounds,
        games=games,
        seed=seed,
        players=players,
        min_players=min_players,
        advance=advance,
        tie_replays=tie_replays,
        jobs=jobs,
        options=options,
    )
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        (out / "replays").mkdir(parents=True, exist_ok=True)
    labels = bot_labels(bots)
    common = dict(game=game, options=options, time=time, sandbox=sandbox, fault_limit=fault_limit)
    match = _MatchCalls(dict(zip(labels, bots, strict=True)), common, seed)
    with _executor(jobs) as pool:
        rows, played, schedule, outcomes = _play_rounds(
            pool, format, plan.options, labels, match, out, on_round, on_match
        )
    records = [_record(m, o) for m, o in zip(schedule, outcomes, strict=True)]
    table = standings(records, bots=labels)
    result = Tournament(
        game, labels, plan.players, schedule, outcomes, table, format, plan.options, played, rows
    )
    if out is not None:
        (out / "standings.json").write_text(json.dumps(result.to_json(), indent=1) + "\n")
    return result


def _play_rounds(
    pool: Executor | None,
    format: str,
    options: FormatOptions,
    labels: list[str],
    match: _MatchCalls,
    out: Path | None,
    on_round: Callable[[Round], None] | None,
    on_match: Callable[[int, MatchOutcome], None] | None,
) -> tuple[dict[str, StandingRow], list[Round], list[ScheduledMatch], list[MatchOutcome]]:
    """Every round the format plans, each from the standings after the one before: the final
    rows, the rounds, and every match played with its outcome, in schedule order."""
    rows = formats.new_standings(labels)
    schedule: list[ScheduledMatch] = []
    outcomes: list[MatchOutcome] = []
    played: list[Round] = []
    while (rnd := formats.next_round(format, rows, len(played), options)) is not None:
        if on_round is not None:
            on_round(rnd)
        results = _play_round(pool, match.calls(rnd, len(schedule)), len(schedule), out, on_match)
        rows = formats.record_round(
            format,
            rows,
            len(played),
            [_result(m, o) for m, o in zip(rnd.matches, results, strict=True)],
            options,
            planned=rnd,
        )
        schedule.extend(rnd.matches)
        outcomes.extend(results)
        played.append(rnd)
    return rows, played, schedule, outcomes


@dataclass(frozen=True)
class _MatchCalls:
    """The ``run_match`` arguments of a tournament's matches: each bot label's spec, what
    every match shares, and the tournament seed that names the matches."""

    spec_of: dict[str, str]
    common: dict[str, Any]
    seed: int

    def calls(self, rnd: Round, first: int) -> list[dict[str, Any]]:
        """One call per match of ``rnd``, whose first match is the tournament's ``first``."""
        return [
            {
                **self.common,
                "bots": [self.spec_of[label] for label in m.bots],
                "seed": m.seed,
                "match_id": f"t{self.seed}-{first + i:05d}",
            }
            for i, m in enumerate(rnd.matches)
        ]


def _play_round(
    pool: Executor | None,
    calls: list[dict[str, Any]],
    first: int,
    out: Path | None,
    on_match: Callable[[int, MatchOutcome], None] | None,
) -> list[MatchOutcome]:
    """Play one round's matches (in ``pool`` if there is one), saving each replay into
    ``out`` and reporting it to ``on_match`` as it ends; the outcomes in schedule order."""
    done: list[MatchOutcome | None] = [None] * len(calls)

    def finish(i: int, outcome: MatchOutcome) -> None:
        done[i] = outcome
        if out is not None:
            name = f"{first + i:05d}-{outcome.match_id}.json"
            save_replay(outcome.replay, out / "replays" / name)
        if on_match is not None:
            on_match(first + i, outcome)

    if pool is None:
        for i, call in enumerate(calls):
            finish(i, run_match(**call))
    else:
        _run_parallel(pool, calls, finish)
    results = [o for o in done if o is not None]
    assert len(results) == len(calls)
    return results


@contextmanager
def _executor(jobs: int) -> Iterator[Executor | None]:
    """One pool of worker processes for the whole tournament (None when ``jobs`` is 1)."""
    if jobs == 1:
        yield None
        return
    # "spawn": worker processes start clean, without copies of this process's threads.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        try:
            yield pool
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _run_parallel(
    pool: Executor, calls: list[dict[str, Any]], done: Callable[[int, MatchOutcome], None]
) -> None:
    pending: dict[Future[MatchOutcome], int] = {}
    try:
        for i, call in enumerate(calls):
            pending[pool.submit(_play_one, call)] = i
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                done(pending.pop(f), f.result())
    except BaseException:
        for f in pending:
            f.cancel()
        raise
