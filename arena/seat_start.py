"""Seating a match: built-in bots and people made in-process, bot programs started through a
sandbox backend all at once and told ``start``. The referee (arena/referee.py) plays them."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from arena import protocol as p
from arena.botspec import BotSpec
from arena.contract import TimeControl
from arena.human_seat import HumanChannel, HumanSeat, HumanTime
from arena.seats import BuiltinSeat, ProgramSeat, Seat
from games import registry
from games.rng import derive_seed
from sandbox.base import BotCode, Limits, Sandbox
from sandbox.code import prepare_bot
from sandbox.host_build import BuildFailed


def resolve_sandbox(sandbox: str | Sandbox | None) -> Sandbox:
    if isinstance(sandbox, Sandbox):
        return sandbox
    from sandbox import get_sandbox  # late: the backends may pull in the Docker SDK

    return get_sandbox(sandbox)


def builtin_seats(
    specs: list[BotSpec],
    *,
    game: str,
    seed: int,
    options: dict[str, Any],
    fault_limit: int,
    human: HumanChannel | None,
    human_time: HumanTime,
    match_id: str,
) -> dict[int, Seat]:
    """The seats played in-process: built-in bots (seeded as ``games.simulate.play`` seeds
    them, so both agree on a match) and people asked through ``human``."""
    seats: dict[int, Seat] = {}
    players = len(specs)
    for i, spec in enumerate(specs):
        if spec.builtin is not None:
            cls = registry.get_bot(game, spec.builtin)
            bot = cls(i, players, options, derive_seed(seed, "bot", i))
            seats[i] = BuiltinSeat(i, spec.text, fault_limit, bot)
        elif spec.human:
            assert human is not None
            seats[i] = HumanSeat(
                i,
                fault_limit,
                human,
                match_id=match_id,
                game=game,
                players=players,
                time_control=human_time,
            )
    return seats


@dataclass
class StartedPrograms:
    seats: list[ProgramSeat]
    #: Lives until the match ends: a child started with PR_SET_PDEATHSIG (bubblewrap's
    #: --die-with-parent) is killed when the *thread* that forked it exits.
    starter: ThreadPoolExecutor
    sandbox_name: str
    start_ms: int
    #: The first failure to start a seat (the others were started: the caller closes them).
    error: BaseException | None = None

    def await_ready(self) -> None:
        sent_at = time.perf_counter()
        for s in self.seats:
            s.await_ready(sent_at, self.start_ms)


def start_programs(
    specs: list[BotSpec],
    sandbox: str | Sandbox | None,
    *,
    game: str,
    options: dict[str, Any],
    match_id: str,
    limits: Limits,
    tc: TimeControl,
    fault_limit: int,
    codes: list[BotCode],
) -> StartedPrograms:
    """Start every program seat at once (container starts dominate a match's cost) and send
    each its ``start``; ``codes`` collects the prepared code for the caller to release.
    Every result is collected before raising, so that no started seat is left unclosed (the
    caller closes the seats it was given, also on error)."""
    todo = [i for i, s in enumerate(specs) if s.path is not None]
    for i in todo:
        labels = {"match": match_id, "seat": str(i)}
        spec = specs[i]
        assert spec.path is not None  # todo holds the program seats only
        codes.append(
            prepare_bot(spec.path, labels=labels, language=spec.language, built=spec.built)
        )
    backend = resolve_sandbox(sandbox)

    def start(k: int) -> ProgramSeat:
        i = todo[k]
        labels = {"match": match_id, "seat": str(i)}
        try:
            proc = backend.start(codes[k], labels=labels, limits=limits)
        except BuildFailed as e:  # which bot: two seats may hold code of one language
            raise BuildFailed(f"seat {i} ({specs[i].text}): {e}") from e
        return ProgramSeat(
            i, specs[i].text, fault_limit, proc, move_ms=tc.move_ms, bank_ms=tc.bank_ms
        )

    starter = ThreadPoolExecutor(max_workers=len(todo), thread_name_prefix="seat")
    started = StartedPrograms([], starter, backend.name, tc.start_ms)
    futures = [starter.submit(start, k) for k in range(len(todo))]
    first_error: BaseException | None = None
    for f in futures:
        try:
            started.seats.append(f.result())
        except BaseException as e:
            first_error = first_error or e
    if first_error is not None:
        started.error = first_error
        return started
    for s in started.seats:
        s.send(p.start_message(game, match_id, s.seat, len(specs), options, asdict(tc)))
    return started
