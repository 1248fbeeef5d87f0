"""The referee: runs one match from a game slug, bot specs, a seed, options and time limits.

One bot process per seat for the whole match (started in parallel through a sandbox backend),
the protocol in bot-protocol.md, the fault rules (default action, fault limit, retirement,
retired seats ranked last), a cap on decisions so every match ends, and every process it
started ended again, also on error or interrupt. Bad input raises ``ValueError`` (a
:class:`games.base.GameError` or :class:`arena.botspec.BotSpecError`) before anything starts;
after that, platform failures give ``status == "error"``, never an exception, and never a
lost replay.
"""

from __future__ import annotations

import time as _time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from arena import protocol as p
from arena.botspec import BotSpec, BotSpecError, StoredCode, parse_bot_spec
from arena.contract import FAULT_LIMIT, ErrorKind, TimeControl
from arena.human_seat import HumanChannel, HumanSeat, HumanTime
from arena.match_clock import MatchDeadline, PastDeadline
from arena.outcome import ERROR, FINISHED, MatchOutcome, SeatOutcome, final_ranks, seat_status
from arena.replay import DECISION_CAP, FORMAT, VERSION, state_digest
from arena.seat_start import builtin_seats, start_programs
from arena.seats import ProgramSeat, Seat
from games import registry
from games.base import GameError
from sandbox.base import BotCode, Limits, Sandbox, SandboxError
from sandbox.code import BotCodeError, release_bot

if TYPE_CHECKING:
    from arena.resume import Resume

DEFAULT_MAX_DECISIONS = 50_000


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def run_match(
    game: str,
    bots: Sequence[str | StoredCode],
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time: TimeControl | None = None,
    sandbox: str | Sandbox | None = None,
    match_id: str | None = None,
    limits: Limits | None = None,
    fault_limit: int = FAULT_LIMIT,
    max_decisions: int | None = None,
    human: HumanChannel | None = None,
    human_time: HumanTime | None = None,
    deadline_s: float | None = None,
    resume: Resume | None = None,
    interrupts: tuple[type[BaseException], ...] = (),
) -> MatchOutcome:
    """Play one match; each bot is a path (``.py``, folder, ``.zip``), ``builtin:NAME``,
    ``human`` (a person asked through the ``human`` channel under ``human_time``), or a
    worker's :class:`~arena.botspec.StoredCode` (an uploaded version, as its spec names it).

    ``deadline_s``: the longest the match may take. At it the match ends as an ``error`` ("the
    match took over N s") and its bots are stopped: it bounds every wait for a seat (the answer
    to ``start``, each decision, a person's move; arena/match_clock.py) as well as the turns
    between, so no decision outlives it whatever its time control. A worker passes its task's
    time limit: enforced here, it holds in every pool, Celery's solo pool (no timers) too.

    ``resume``: play on from a recorded match's position (arena/resume.py) instead of the
    start; the caller passes the record's game, seed and options.

    ``interrupts``: exceptions that stop the match from outside it (a worker's own time limit:
    ``arena.tasks.play`` passes Celery's, so that this module knows no task queue). They are
    raised on to the caller once the bots are stopped, never recorded as the match's error."""
    # -- check the input before anything starts ---------------------------------------------
    g = registry.get_game(game)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GameError(f"seed must be an integer, got {seed!r}")
    specs = [parse_bot_spec(b, game) for b in bots]
    if human is None and any(s.human for s in specs):
        raise BotSpecError("a seat is 'human' but no human channel was given")
    opts = g.check_options(dict(options or {}))
    state = g.new_game(len(specs), seed, opts)
    tc = time or TimeControl()
    if isinstance(fault_limit, bool) or not isinstance(fault_limit, int) or fault_limit < 1:
        raise ValueError(f"fault_limit must be a positive integer, got {fault_limit!r}")
    cap = DEFAULT_MAX_DECISIONS if max_decisions is None else max_decisions
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise ValueError(f"max_decisions must be a positive integer, got {max_decisions!r}")
    match_id = match_id or uuid.uuid4().hex[:16]
    limits = limits or Limits()

    match = _Match(game, specs, seed, opts, tc, match_id, limits, fault_limit, cap)
    match.human, match.human_time = human, human_time or HumanTime()
    if deadline_s is not None:
        match.deadline = MatchDeadline.after(deadline_s)
    match.resume = resume
    match.interrupts = interrupts
    match.run(state if resume is None else resume.state, sandbox)
    return match.outcome()


class _Match:
    """The state of one running match; ``run`` always leaves no process behind."""

    def __init__(
        self,
        game: str,
        specs: list[BotSpec],
        seed: int,
        options: dict[str, Any],
        tc: TimeControl,
        match_id: str,
        limits: Limits,
        fault_limit: int,
        cap: int,
    ) -> None:
        self.game = game
        self.specs = specs
        self.players = len(specs)
        self.seed = seed
        self.options = options
        self.tc = tc
        self.match_id = match_id
        self.limits = limits
        self.fault_limit = fault_limit
        self.cap = cap
        self.seats: list[Seat | None] = [None] * self.players
        self.codes: list[BotCode] = []
        self.decisions: list[dict[str, Any]] = []
        self.status = FINISHED
        self.error: str | None = None
        self.error_kind: ErrorKind | None = None
        self.result: dict[str, Any] = {}
        self.final_state: str | None = None
        self.sandbox_name: str | None = None
        self.started_at = _now()
        self.t0 = _time.perf_counter()
        self.logs: list[str] = [""] * self.players
        self.log_marks: list[list[list[int]]] = [[] for _ in range(self.players)]
        self.starter: ThreadPoolExecutor | None = None
        self.human: HumanChannel | None = None
        self.human_time = HumanTime()
        #: When the match must end (``deadline_s``), or None: no limit.
        self.deadline: MatchDeadline | None = None
        self.resume: Resume | None = None
        #: Raised on, not recorded (``run_match(interrupts=...)``).
        self.interrupts: tuple[type[BaseException], ...] = ()

    # -- running -----------------------------------------------------------------------------

    def run(self, state: Any, sandbox: str | Sandbox | None) -> None:
        try:
            self._make_builtin_seats()
            if any(s.path is not None for s in self.specs):
                self._start_programs(sandbox)
            if self.resume is not None:
                self.resume.attach(self.seats, self.decisions)
            self._play(state)
            self._send_end()
        except BotCodeError:
            raise  # bad input after all (e.g. a zip without main.py): the caller's error
        except SandboxError as e:
            self._fail(f"sandbox: {e}", ErrorKind.SANDBOX)
        except PastDeadline as e:
            self._fail(str(e), ErrorKind.TIME_LIMIT)
        except Exception as e:
            if isinstance(e, self.interrupts):
                # A worker's own time limit (Celery's, in a prefork pool; the referee's deadline
                # usually comes first): its task records "the match took over N s"
                # (matches.playing).
                raise
            # An engine or built-in bot bug: a system error, not a fault.
            self._fail(f"{type(e).__name__}: {e}", ErrorKind.ENGINE)
        finally:
            self._close_all()

    def _fail(self, message: str, kind: ErrorKind) -> None:
        self.status = ERROR
        self.error = message
        self.error_kind = kind

    def _make_builtin_seats(self) -> None:
        for i, seat in builtin_seats(
            self.specs,
            game=self.game,
            seed=self.seed,
            options=self.options,
            fault_limit=self.fault_limit,
            human=self.human,
            human_time=self.human_time,
            match_id=self.match_id,
        ).items():
            seat.match_deadline = self.deadline
            self.seats[i] = seat

    def _start_programs(self, sandbox: str | Sandbox | None) -> None:
        started = start_programs(
            self.specs,
            sandbox,
            game=self.game,
            options=self.options,
            match_id=self.match_id,
            limits=self.limits,
            tc=self.tc,
            fault_limit=self.fault_limit,
            codes=self.codes,
        )
        self.starter, self.sandbox_name = started.starter, started.sandbox_name
        for seat in started.seats:
            seat.match_deadline = self.deadline
            self.seats[seat.seat] = seat
        if started.error is not None:
            raise started.error
        started.await_ready()

    def _play(self, state: Any) -> None:
        seats = self.seats
        decisions = self.decisions
        turn = len(decisions)  # a resumed match starts with the record's first decisions
        while not state.is_over():
            if turn >= self.cap:
                self._end_by_cap()
                return
            if self.deadline is not None:
                self.deadline.check()
            seat = state.current_seat()
            legal = state.legal_actions()
            player = seats[seat]
            assert player is not None
            if player.retired:
                choice = None
                index = 0
            else:
                choice = self.resume.follow(turn, state, legal, player) if self.resume else None
                if choice is None:
                    player.before_decision(state)
                    choice = player.decide(turn, state.observation(seat), legal)
                index = choice.index
            action = legal[index]
            events = state.apply(action)
            record: dict[str, Any] = {
                "turn": turn,
                "seat": seat,
                "index": index,
                "action": action,
                "ms": 0.0,
                "events": events,
            }
            if choice is None:
                record["default"] = True
            else:
                record["ms"] = round(choice.ms, 3)
                if choice.default:
                    record["default"] = True
                if choice.fault:
                    record["fault"] = choice.fault
                if choice.log is not None:
                    record["log"] = choice.log
                if choice.stale:
                    record["stale"] = choice.stale
            decisions.append(record)
            turn += 1
        engine = state.result()
        self.final_state = state_digest(state)
        self._set_result(engine.scores, engine.ranks, engine.reason, engine.details)

    def _end_by_cap(self) -> None:
        # The games carry their own round limits; this is the last resort against an engine
        # that never ends. No score can be read off an unfinished game: a draw among the
        # seats still playing.
        self._set_result([0] * self.players, [1] * self.players, DECISION_CAP, {})

    def _set_result(
        self, scores: list[Any], game_ranks: list[int], reason: str, details: dict[str, Any]
    ) -> None:
        retired = [s is not None and s.retired for s in self.seats]
        self.result = {
            "scores": list(scores),
            "ranks": final_ranks(game_ranks, retired),
            "game_ranks": list(game_ranks),
            "reason": reason,
            "retired": [i for i, r in enumerate(retired) if r],
        }
        if details:
            self.result["details"] = details

    def _send_end(self) -> None:
        message = p.end_message({k: self.result[k] for k in ("scores", "ranks", "reason")})
        for s in self.seats:
            if isinstance(s, ProgramSeat) and not s.retired:
                s.send(message)
            elif isinstance(s, HumanSeat):
                s.finish(self.result)

    def _close_all(self) -> None:
        """End every process (in parallel: each may take its grace period), keep their logs,
        delete the prepared code. Runs on every exit path, also KeyboardInterrupt."""
        programs = [s for s in self.seats if isinstance(s, ProgramSeat)]
        if programs:
            with ThreadPoolExecutor(max_workers=len(programs)) as pool:
                list(pool.map(lambda s: s.close(0.5), programs))
            for s in programs:
                self.logs[s.seat] = s.logs()
                self.log_marks[s.seat] = s.log_marks()
        if self.starter is not None:
            self.starter.shutdown(wait=True)
        if self.codes:
            for code in self.codes:
                release_bot(code)

    # -- reporting ---------------------------------------------------------------------------

    def _seat_outcomes(self) -> list[SeatOutcome]:
        out = []
        for i, spec in enumerate(self.specs):
            s = self.seats[i]
            so = SeatOutcome(bot=spec.text)
            if s is not None:
                so.faults = s.faults
                so.time_ms = s.time_ms
                so.name = s.name
                so.retired_turn = s.retired_turn
                so.status = seat_status(s.faults, s.retired_by)
            if self.result:
                so.score = self.result["scores"][i]
                so.rank = self.result["ranks"][i]
            out.append(so)
        return out

    def outcome(self) -> MatchOutcome:
        seats = self._seat_outcomes()
        if self.status == ERROR:
            self.result = {}
            for so in seats:
                so.score = so.rank = None
        replay_seats = []
        for i, so in enumerate(seats):
            entry = {"seat": i, **so.to_json(), "builtin": self.specs[i].is_builtin}
            s = self.seats[i]
            if isinstance(s, ProgramSeat):
                entry["ready_ms"] = None if s.ready_ms is None else round(s.ready_ms, 3)
            if self.specs[i].human:
                entry["human"] = True
            replay_seats.append(entry)
        replay = {
            "format": FORMAT,
            "version": VERSION,
            "protocol": p.PROTOCOL_VERSION,
            "match_id": self.match_id,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "time": asdict(self.tc),
            **({"human_time": asdict(self.human_time)} if any(s.human for s in self.specs) else {}),
            "fault_limit": self.fault_limit,
            "max_decisions": self.cap,
            "sandbox": self.sandbox_name,
            "status": self.status,
            "error": self.error,
            "seats": replay_seats,
            "decisions": self.decisions,
            "result": self.result,
            "final_state": self.final_state,
            **({"resumed_from": self.resume.origin} if self.resume is not None else {}),
            "logs": self.logs,
            "log_marks": self.log_marks,
            "started_at": self.started_at,
            "finished_at": _now(),
            "duration_ms": round((_time.perf_counter() - self.t0) * 1000, 3),
        }
        return MatchOutcome(
            match_id=self.match_id,
            game=self.game,
            seed=self.seed,
            status=self.status,
            error=self.error,
            result=self.result,
            seats=seats,
            replay=replay,
            error_kind=self.error_kind,
        )
