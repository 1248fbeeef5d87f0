"""One seat of a match as the referee sees it: a bot process spoken to over the protocol, or a
built-in bot called in-process, plus the seat's faults, time bank and retirement."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

from arena import protocol as p
from arena.match_clock import MatchDeadline, nearer
from games.base import Bot
from sandbox.base import BotGone, BotProcess, LineTooLong

# A fault of these kinds retires the seat at once (bot-protocol.md, "Faults"): after a timeout
# a late answer could not be told from the next one, a dead process cannot play, and a seat
# that never said ready never joined. An over-long line is an ordinary fault: the sandbox's
# line buffer drops the rest of it, so the stream stays in step.
RETIRING = frozenset({p.TIMEOUT, p.CRASH, p.NO_READY})
FAULT_LIMIT_REACHED = "fault_limit"
#: Total ``log`` text kept per seat and match; past it, logs are dropped (the replay's size
#: must not be the bot's choice).
LOG_BUDGET_CHARS = 64 * 1024


@dataclass
class Choice:
    """One decision as played: ``index`` into the legal actions (0, the documented default,
    when the referee played for the seat)."""

    index: int
    ms: float = 0.0
    default: bool = False
    fault: str | None = None
    log: str | None = None
    stale: int = 0


class Seat:
    """Bookkeeping shared by both kinds of seat."""

    builtin = False
    human = False

    def __init__(self, seat: int, bot: str, fault_limit: int) -> None:
        self.seat = seat
        self.bot = bot
        self.fault_limit = fault_limit
        self.faults: list[dict[str, Any]] = []
        self.retired_by: str | None = None
        self.retired_turn: int | None = None
        self.time_ms = 0.0
        self.name: str | None = None
        #: The match's deadline, which ends every wait of this seat's too (the referee's).
        self.match_deadline: MatchDeadline | None = None

    @property
    def retired(self) -> bool:
        return self.retired_by is not None

    def fault(self, kind: str, turn: int | None, detail: str) -> None:
        self.faults.append({"kind": kind, "turn": turn, "detail": detail})
        if self.retired:
            return
        if kind in RETIRING:
            self.retire(kind, turn)
        elif len(self.faults) >= self.fault_limit:
            self.retire(FAULT_LIMIT_REACHED, turn)

    def retire(self, why: str, turn: int | None) -> None:
        self.retired_by = why
        self.retired_turn = 0 if turn is None else turn

    def before_decision(self, state: Any) -> None:
        """Called with the live state just before ``decide``; only a human seat looks (to
        draw its picture), and never changes it."""

    def decide(self, turn: int, observation: dict[str, Any], legal: list[Any]) -> Choice:
        raise NotImplementedError

    def close(self, grace_s: float = 0.5) -> None:
        """End whatever this seat runs. Never raises."""

    def logs(self) -> str:
        return ""

    def log_marks(self) -> list[list[int]]:
        """``[turn, start, end]`` per decision that wrote to stderr: ``logs()[start:end]``."""
        return []


class BuiltinSeat(Seat):
    """A game's built-in bot: trusted code in-process, timed but not time-limited. A failure
    here is a platform bug, so it propagates (the match becomes an error, not a fault)."""

    builtin = True

    def __init__(self, seat: int, bot: str, fault_limit: int, player: Bot) -> None:
        super().__init__(seat, bot, fault_limit)
        self.player = player
        self.name = bot

    def decide(self, turn: int, observation: dict[str, Any], legal: list[Any]) -> Choice:
        t0 = time.perf_counter()
        index = self.player.act(observation, legal)
        ms = (time.perf_counter() - t0) * 1000
        self.time_ms += ms
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            raise RuntimeError(
                f"built-in bot {self.bot} returned {index!r} for "
                f"{len(legal)} legal actions at turn {turn}"
            )
        return Choice(index=index, ms=ms)


class ProgramSeat(Seat):
    """A submitted bot in a sandboxed process, kept for the whole match."""

    def __init__(
        self,
        seat: int,
        bot: str,
        fault_limit: int,
        process: BotProcess,
        *,
        move_ms: int,
        bank_ms: int,
    ) -> None:
        super().__init__(seat, bot, fault_limit)
        self.process = process
        self.move_ms = move_ms
        self.bank_ms = float(bank_ms)
        self.ready_ms: float | None = None
        self.log_budget = LOG_BUDGET_CHARS
        #: (turn, the process's stderr mark once that decision's answer was read)
        self._stderr_marks: list[tuple[int, int]] = []
        self._closed = False

    def retire(self, why: str, turn: int | None) -> None:
        super().retire(why, turn)
        self.close(grace_s=0)  # a retired seat's process is ended at once

    def _gone(self, turn: int | None, err: BotGone) -> None:
        # stderr is private to the bot's owner: it goes to the replay's per-seat logs, never
        # into a fault's public detail.
        reason = self.process.exit_reason() or err.reason
        self.fault(p.CRASH, turn, f"process ended ({reason})")

    def _too_long(self, turn: int | None) -> None:
        self.fault(p.LINE_TOO_LONG, turn, "wrote a line longer than the cap")

    # -- start -------------------------------------------------------------------------------

    def send(self, message: dict[str, Any], turn: int | None = None) -> None:
        if self.retired:
            return
        try:
            self.process.send_line(p.encode_bytes(message))
        except BotGone as err:
            self._gone(turn, err)

    def await_ready(self, sent_at: float, start_ms: int) -> None:
        """Read the answer to ``start`` (sent at ``sent_at``, ``perf_counter`` seconds)."""
        if self.retired:
            return
        until, cut = nearer(sent_at + start_ms / 1000, self.match_deadline)
        remaining = max(0.0, until - time.perf_counter())
        try:
            line = self.process.read_line(remaining)
        except BotGone as err:
            self._gone(None, err)
            return
        except LineTooLong:
            self.fault(p.NO_READY, None, "answered start with a line longer than the cap")
            return
        self.ready_ms = (time.perf_counter() - sent_at) * 1000
        if line is None and cut:
            assert self.match_deadline is not None
            raise self.match_deadline.error()  # the match is over, not the seat late
        if line is None:
            self.fault(p.TIMEOUT, None, f"no ready within start_ms={start_ms}")
            return
        ready = p.parse_ready(line)
        if ready.fault:
            self.fault(ready.fault, None, ready.detail)
        else:
            self.name = ready.name

    # -- decisions ---------------------------------------------------------------------------

    def _drain_unsolicited(self, turn: int) -> None:
        """Lines that came while no decision was pending are faults, never answers."""
        while not self.retired:
            try:
                line = self.process.read_line(0)
            except BotGone as err:
                self._gone(turn, err)
                return
            except LineTooLong:
                self._too_long(turn)
                continue
            if line is None:
                return
            self.fault(
                p.UNSOLICITED, turn, f"line while no decision was pending: {p._short(line)!r}"
            )

    def decide(self, turn: int, observation: dict[str, Any], legal: list[Any]) -> Choice:
        try:
            return self._ask(turn, observation, legal)
        finally:
            # After the answer (or the fault), outside the seat's time: what the bot wrote
            # to stderr since its last decision, and what already arrived with the answer,
            # is this decision's (bot-protocol.md, "Logs").
            self._mark_stderr(turn)

    def _mark_stderr(self, turn: int) -> None:
        try:
            self._stderr_marks.append((turn, self.process.stderr_mark()))
        except Exception:  # a faulty backend costs the marks, never the match
            return

    def _ask(self, turn: int, observation: dict[str, Any], legal: list[Any]) -> Choice:
        self._drain_unsolicited(turn)
        if self.retired:
            return Choice(index=0, default=True)
        time_left_ms = self.move_ms + int(self.bank_ms)
        line = p.encode_bytes(p.act_message(turn, self.seat, observation, legal, time_left_ms))
        stale = 0
        t0 = time.perf_counter()
        # The nearer of the decision's clock and the match's deadline (arena/match_clock.py).
        deadline, cut = nearer(t0 + time_left_ms / 1000, self.match_deadline)
        try:
            self.process.send_line(line)
            while True:
                got = self.process.read_line(max(0.0, deadline - time.perf_counter()))
                if got is None:
                    answer = None
                    break
                answer = p.parse_answer(got, legal, turn)
                if not answer.stale:
                    break
                stale += 1  # an answer to another turn: discarded, keep waiting
        except BotGone as err:
            self._account(t0)
            self._gone(turn, err)
            return Choice(index=0, default=True, fault=p.CRASH, stale=stale)
        except LineTooLong:
            self._account(t0)
            self._too_long(turn)
            return Choice(index=0, default=True, fault=p.LINE_TOO_LONG, stale=stale)
        ms = self._account(t0)
        if answer is None and cut:
            assert self.match_deadline is not None
            raise self.match_deadline.error()  # the match is over, not the seat late
        if answer is None:
            self.fault(
                p.TIMEOUT,
                turn,
                f"no answer within time_left_ms={time_left_ms} "
                f"(move_ms={self.move_ms} + bank); waited {ms:.0f} ms",
            )
            return Choice(index=0, ms=ms, default=True, fault=p.TIMEOUT, stale=stale)
        if answer.fault:
            self.fault(answer.fault, turn, answer.detail)
            return Choice(
                index=0,
                ms=ms,
                default=True,
                fault=answer.fault,
                log=self._budget(answer.log),
                stale=stale,
            )
        assert answer.index is not None
        return Choice(index=answer.index, ms=ms, log=self._budget(answer.log), stale=stale)

    def _budget(self, log: str | None) -> str | None:
        if log is None or self.log_budget <= 0:
            return None
        log = log[: self.log_budget]
        self.log_budget -= len(log)
        return log

    def _account(self, t0: float) -> float:
        """Charge the time since ``t0`` to this seat: beyond ``move_ms`` it comes from the bank."""
        ms = (time.perf_counter() - t0) * 1000
        self.time_ms += ms
        self.bank_ms = max(0.0, self.bank_ms - max(0.0, ms - self.move_ms))
        return ms

    # -- end ---------------------------------------------------------------------------------

    def close(self, grace_s: float = 0.5) -> None:
        if self._closed:
            return
        self._closed = True
        # close() must never raise; guard against a faulty backend anyway
        with contextlib.suppress(Exception):
            self.process.close(grace_s=grace_s)

    def logs(self) -> str:
        """The bot's stderr, as text a database stores (a NUL byte made U+FFFD: one character
        for one, so :meth:`log_marks` offsets hold)."""
        try:
            return p.printable(self.process.stderr_text())
        except Exception:
            return ""

    def log_marks(self) -> list[list[int]]:
        """Call after :meth:`close` (the text no longer grows) and :meth:`logs`."""
        try:
            ends = self.process.stderr_offsets([mark for _turn, mark in self._stderr_marks])
        except Exception:  # as in logs(): a faulty backend costs the marks, never the match
            return []
        if len(ends) != len(self._stderr_marks):
            return []
        out: list[list[int]] = []
        start = 0
        for (turn, _mark), end in zip(self._stderr_marks, ends, strict=True):
            if end > start:
                out.append([turn, start, end])
            start = end
        return out
