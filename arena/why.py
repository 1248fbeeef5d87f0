"""``arena replay why``: what one seat was told at one decision of a recorded match and what
it answered, re-simulated from the replay (the ``act`` message as the referee wrote it), with
its time, faults and the log lines it wrote meanwhile (the replay's ``log_marks``)."""

from __future__ import annotations

from typing import Any

from arena import protocol as p
from arena.resume import ResumeError, check_position, resimulate
from games.base import GameState

NO_LOGS = "no logs in this replay"


def explain(doc: dict[str, Any], step: int, seat: int) -> dict[str, Any]:
    """Decision ``step`` of ``seat`` in ``doc``; raises :class:`ResumeError` (one line) for a
    step or seat the record does not have, or a step another seat decided."""
    check_position(doc, step, seat)
    decision = doc["decisions"][step]
    if decision.get("seat") != seat:
        raise ResumeError(
            f"decision {step} was seat {decision.get('seat')}'s, not seat {seat}'s "
            f"({_nearest(doc['decisions'], step, seat)})"
        )
    told: dict[str, Any] = {}

    def keep(n: int, state: GameState, legal: list[Any]) -> None:
        if n == step:
            told.update(observation=state.observation(seat), legal=legal)

    resimulate(doc, step + 1, keep)  # decision ``step`` itself checked too
    info = doc["seats"][seat]
    kind = "human" if info.get("human") else "built-in" if info.get("builtin") else "program"
    retired = info.get("retired_turn")
    # once retired, the referee played for the seat without asking it (no fault recorded then)
    asked = retired is None or step < retired or "fault" in decision
    act = None
    if asked:
        time_left = _time_left(doc, step, seat, kind)
        act = p.act_message(step, seat, told["observation"], told["legal"], 0)
        act["time_left_ms"] = time_left  # None for a built-in bot: it has no clock
    faults = [
        {"kind": f.get("kind"), "detail": f.get("detail")}
        for f in info.get("faults") or []
        if isinstance(f, dict) and f.get("turn") == step
    ]
    return {
        "game": doc["game"],
        "seed": doc["seed"],
        "step": step,
        "seat": seat,
        "bot": info.get("bot"),
        "kind": kind,
        "asked": asked,
        "act": act,
        "answer": {
            "index": decision.get("index"),
            "action": decision.get("action"),
            "ms": decision.get("ms"),
            "default": bool(decision.get("default")),
            "fault": decision.get("fault"),
            "log": decision.get("log"),
            "stale": decision.get("stale", 0),
        },
        "faults": faults,
        "events": decision.get("events", []),
        "logs": decision_logs(doc, step, seat),
    }


def decision_logs(doc: dict[str, Any], step: int, seat: int) -> str | None:
    """What ``seat`` wrote to stderr during decision ``step`` ("" if nothing), or None when the
    replay holds no per-decision logs."""
    logs, marks = doc.get("logs"), doc.get("log_marks")
    if not isinstance(logs, list) or not isinstance(marks, list) or seat >= len(marks):
        return None
    text = logs[seat] if seat < len(logs) and isinstance(logs[seat], str) else ""
    seat_marks = marks[seat] if isinstance(marks[seat], list) else []
    return "".join(
        text[m[1] : m[2]]
        for m in seat_marks
        if isinstance(m, list)
        and len(m) == 3
        and all(isinstance(x, int) for x in m)
        and m[0] == step
    )


def _time_left(doc: dict[str, Any], step: int, seat: int, kind: str) -> int | None:
    """The ``time_left_ms`` the seat was sent: its move time plus what was left of its bank,
    recomputed from the recorded times of its earlier decisions (to the millisecond). A
    built-in bot is called in-process, with no clock; a person has the human clock."""
    if kind == "built-in":
        return None
    if kind == "human":
        return int((doc.get("human_time") or {}).get("move_ms", 0)) or None
    time = doc.get("time") or {}
    move, bank = int(time.get("move_ms", 0)), float(time.get("bank_ms", 0))
    for d in doc["decisions"][:step]:
        if d.get("seat") == seat:
            bank = max(0.0, bank - max(0.0, float(d.get("ms") or 0.0) - move))
    return move + int(bank)


def _nearest(decisions: list[dict[str, Any]], step: int, seat: int) -> str:
    before = next((n for n in range(step - 1, -1, -1) if decisions[n].get("seat") == seat), None)
    after = next(
        (n for n in range(step + 1, len(decisions)) if decisions[n].get("seat") == seat), None
    )
    found = [
        f"{n} ({where})" for n, where in ((before, "before"), (after, "after")) if n is not None
    ]
    if not found:
        return f"seat {seat} made no decision in this match"
    return f"seat {seat}'s nearest decisions: {', '.join(found)}"
