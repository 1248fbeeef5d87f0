"""Re-running a recorded match from one of its decisions (``arena play --from-replay``).

The position at decision STEP is the engine state after re-simulating the record's first STEP
decisions from its seed and options: the same state, RNG included, so the same chance follows
the same actions. The referee (``run_match(..., resume=...)``) then plays on from there with
three hooks of this module: :meth:`Resume.attach` before the first decision (the record's
first STEP decisions, the seats' faults, time and clocks up to STEP; the built-in bots shown
the decisions they would have seen), :meth:`Resume.follow` at each decision of a seat other
than the re-run one (its recorded decision while the game has not left the record, else None:
its own bot decides), and :attr:`Resume.origin` for the new replay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.protocol import canonical
from arena.replay import check_header
from arena.seats import BuiltinSeat, Choice, ProgramSeat, Seat
from games import registry
from games.base import GameError, GameState

#: ``visit(n, state, legal)``: called before decision ``n`` is applied.
Visit = Callable[[int, GameState, list[Any]], None]


class ResumeError(ValueError):
    """A replay, step or seat a match cannot be resumed from (one line: the CLI's exit 2)."""


def check_position(doc: dict[str, Any], step: int, seat: int) -> None:
    """Refuse a decision number or seat the record does not have (before anything runs)."""
    try:
        check_header(doc)
    except ValueError as e:
        raise ResumeError(str(e)) from None
    decisions, seats = doc.get("decisions"), doc.get("seats")
    if not isinstance(decisions, list) or not isinstance(seats, list) or not seats:
        raise ResumeError("malformed replay: no decisions or seats")
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(decisions):
        last = len(decisions) - 1
        where = f"0 to {last}" if decisions else "none: the record has no decisions"
        raise ResumeError(f"step {step} is not a decision of this replay (decisions: {where})")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise ResumeError(
            f"seat {seat} is not a seat of this replay (seats: 0 to {len(seats) - 1})"
        )


def resimulate(doc: dict[str, Any], step: int, visit: Visit | None = None) -> GameState:
    """The engine state before decision ``step``: the record's first ``step`` decisions
    re-simulated and checked one by one (seat, legal action, events) as ``replay verify`` does.
    Raises :class:`ResumeError` naming the first disagreement."""
    try:
        game = registry.get_game(doc["game"])
        state = game.new_game(len(doc["seats"]), doc["seed"], doc["options"])
    except (GameError, KeyError, TypeError) as e:
        raise ResumeError(f"cannot set the recorded match up again: {e}") from None
    for n, d in enumerate(doc["decisions"][:step]):
        problem = _disagreement(state, d, n)
        if problem is not None:
            raise ResumeError(
                f"the replay does not re-simulate up to step {step}: decision {n}: {problem}"
            )
        legal = state.legal_actions()
        if visit is not None:
            visit(n, state, legal)
        events = state.apply(legal[d["index"]])
        if canonical(events) != canonical(d.get("events", [])):
            raise ResumeError(
                f"the replay does not re-simulate up to step {step}: decision {n}: "
                "events differ from the engine's"
            )
    return state


def _disagreement(state: GameState, d: Any, n: int) -> str | None:
    """Why recorded decision ``d`` cannot be played on ``state``, or None."""
    if not isinstance(d, dict):
        return "not an object"
    seat = state.current_seat()
    if seat is None:
        return "the game was already over"
    if d.get("turn") != n or d.get("seat") != seat:
        return f"turn {d.get('turn')!r} seat {d.get('seat')!r}, but seat {seat} was to play"
    legal = state.legal_actions()
    index = d.get("index")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
        return f"index {index!r} outside the {len(legal)} legal actions"
    if canonical(legal[index]) != canonical(d.get("action")):
        return f"action {canonical(d.get('action'))} is not legal action {index}"
    return None


def first_divergence(
    record: list[dict[str, Any]],
    played: list[dict[str, Any]],
    start: int,
    end: int | None = None,
) -> int | None:
    """The first decision in ``start..end-1`` (default: to the longer list's end) where
    ``played`` left ``record`` (another seat or action, or one of them ended), or None."""
    stop = max(len(record), len(played)) if end is None else end
    for n in range(start, stop):
        if n >= len(record) or n >= len(played):
            return n
        a, b = record[n], played[n]
        if a.get("seat") != b.get("seat") or canonical(a.get("action")) != canonical(
            b.get("action")
        ):
            return n
    return None


class Resume:
    """A recorded match resumed at decision ``step`` with ``seat`` played by a new bot.

    Built before anything starts (bad input raises :class:`ResumeError`); the referee calls
    :meth:`attach` once its seats are ready, then :meth:`follow` for the other seats."""

    def __init__(self, doc: dict[str, Any], step: int, seat: int, source: str = "") -> None:
        check_position(doc, step, seat)
        retired = doc["seats"][seat].get("retired_turn")
        if retired is not None and retired < step:
            raise ResumeError(
                f"seat {seat} was retired at decision {retired} in the record (the referee "
                f"played for it from then on): choose a step up to {retired}"
            )
        self.doc, self.step, self.seat = doc, step, seat
        self.record: list[dict[str, Any]] = doc["decisions"]
        #: the position at ``step``, which the referee plays on
        self.state = resimulate(doc, step)
        self.origin = {"match_id": doc.get("match_id"), "step": step, "seat": seat}
        if source:
            self.origin["file"] = source
        self._decisions: list[dict[str, Any]] = []
        self._checked = step
        self.diverged_at: int | None = None
        self._faults = _faults_by_turn(doc["seats"])

    # -- the referee's hooks -----------------------------------------------------------------

    def attach(self, seats: list[Seat | None], decisions: list[dict[str, Any]]) -> None:
        """Bring the new match's seats to decision ``step``: the record's decisions before it,
        each seat's faults (a retirement included), time and clock, and each built-in bot's
        memory (it is shown every decision of its seat, its answers ignored)."""
        self._decisions = decisions
        decisions.extend(dict(d) for d in self.record[: self.step])
        for i, s in enumerate(seats):
            assert s is not None
            for f in _prior_faults(self.doc, i, self.step, new_bot=i == self.seat):
                s.fault(f["kind"], f["turn"], f.get("detail", ""))
        for d in decisions:
            _charge(seats[d["seat"]], float(d.get("ms") or 0.0))
        if any(isinstance(s, BuiltinSeat) for s in seats):

            def show(n: int, state: GameState, legal: list[Any]) -> None:
                player = seats[self.record[n]["seat"]]
                if isinstance(player, BuiltinSeat) and not player.retired:
                    player.player.act(state.observation(player.seat), legal)

            resimulate(self.doc, self.step, show)

    def follow(self, turn: int, state: GameState, legal: list[Any], player: Seat) -> Choice | None:
        """The recorded decision for ``player`` (not the re-run seat) at ``turn`` while the game
        is still the record's; None once it has left it (then ``player`` decides)."""
        if player.seat == self.seat or self._left_record(turn):
            return None
        d = self.record[turn]
        index = d.get("index")
        if (
            d.get("seat") != player.seat
            or isinstance(index, bool)
            or not isinstance(index, int)
            or not 0 <= index < len(legal)
            or canonical(legal[index]) != canonical(d.get("action"))
        ):
            self.diverged_at = turn  # the record cannot be followed here (it may be damaged)
            return None
        if isinstance(player, BuiltinSeat):
            player.player.act(state.observation(player.seat), legal)  # keep its memory
        ms = float(d.get("ms") or 0.0)
        _charge(player, ms)
        for f in self._faults.get((player.seat, turn), []):
            player.fault(f["kind"], turn, f.get("detail", ""))
        return Choice(
            index=index,
            ms=ms,
            default=bool(d.get("default")),
            fault=d.get("fault"),
            log=d.get("log"),
            stale=int(d.get("stale") or 0),
        )

    def _left_record(self, turn: int) -> bool:
        if self.diverged_at is None:
            found = first_divergence(self.record, self._decisions, self._checked, turn)
            self._checked = turn
            if found is not None:
                self.diverged_at = found
            elif turn >= len(self.record):
                self.diverged_at = turn
        return self.diverged_at is not None


def _faults_by_turn(seats: list[dict[str, Any]]) -> dict[tuple[int, int], list[dict[str, Any]]]:
    out: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for i, s in enumerate(seats):
        for f in s.get("faults") or []:
            if isinstance(f, dict) and isinstance(f.get("turn"), int):
                out.setdefault((i, f["turn"]), []).append(f)
    return out


def _prior_faults(doc: dict[str, Any], seat: int, step: int, *, new_bot: bool) -> list[Any]:
    """The seat's recorded faults before decision ``step``. Faults without a turn count only
    for a seat that never got to play (a failed start: it was retired at turn 0); a new bot
    has its own start, and a turnless fault of a seat that played came at the match's end."""
    never_played = not any(
        d.get("seat") == seat and ("fault" in d or not d.get("default")) for d in doc["decisions"]
    )
    out = []
    for f in doc["seats"][seat].get("faults") or []:
        if not isinstance(f, dict):
            continue
        turn = f.get("turn")
        if (turn is None and never_played and not new_bot) or (
            isinstance(turn, int) and turn < step
        ):
            out.append(f)
    return out


def _charge(seat: Seat | None, ms: float) -> None:
    """A recorded decision's time, as the seat's own ``decide`` would have counted it."""
    if seat is None:
        return
    seat.time_ms += ms
    if isinstance(seat, ProgramSeat):
        seat.bank_ms = max(0.0, seat.bank_ms - max(0.0, ms - seat.move_ms))


def compare(record: dict[str, Any], replay: dict[str, Any], step: int, seat: int) -> dict[str, Any]:
    """How a re-run from ``step`` (its replay) differs from the record: the first decision at
    which the game left the record, whether that was ``seat`` choosing otherwise (with both
    actions), and both results."""
    old, new = record["decisions"], replay["decisions"]
    diverged = first_divergence(old, new, step)
    changed = None
    if (
        diverged is not None
        and diverged < min(len(old), len(new))
        and new[diverged]["seat"] == old[diverged]["seat"] == seat
    ):
        changed = {
            "step": diverged,
            "recorded": {k: old[diverged].get(k) for k in ("index", "action")},
            "now": {k: new[diverged].get(k) for k in ("index", "action")},
        }

    def result(doc: dict[str, Any]) -> dict[str, Any]:
        r = doc.get("result") or {}
        return {k: r.get(k) for k in ("scores", "ranks", "reason")} | {"status": doc["status"]}

    return {
        "step": step,
        "seat": seat,
        "seat_changed": changed,
        "diverged_at": diverged,
        "recorded_result": result(record),
        "result": result(replay),
    }
