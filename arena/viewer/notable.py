"""A seat's decisions worth a look in a replay: where it faulted, and where it spent the most
time. One pass over the replay's decisions (bounded by the replay, whatever else is stored);
the site lists them for a bot's owner on the match page, the offline file for every program
seat, each linked to its step in the viewer (step ``n`` is the position after decision
``n - 1``)."""

from __future__ import annotations

import heapq
from typing import Any

#: How many decisions each list holds.
LIMIT = 5


def notable_decisions(replay: dict[str, Any], seat: int, limit: int = LIMIT) -> dict[str, Any]:
    """``{"faults": [...], "more_faults": int, "slowest": [...]}`` for ``seat``: its first
    ``limit`` faulted decisions (``step``, ``turn``, ``kind``, ``detail``, ``ms``) and its
    ``limit`` slowest (``step``, ``turn``, ``ms``, ``fault``), slowest first."""
    details = _fault_details(replay, seat)
    faults: list[dict[str, Any]] = []
    more = 0
    timed: list[tuple[float, int, dict[str, Any]]] = []
    for i, d in enumerate(replay.get("decisions") or []):
        if not isinstance(d, dict) or d.get("seat") != seat:
            continue
        turn = d.get("turn", i)
        if d.get("fault"):
            if len(faults) < limit:
                detail = details.get((turn, d["fault"]), "")
                faults.append(
                    {"step": i + 1, "turn": turn, "kind": d["fault"], "detail": detail}
                    | {"ms": d.get("ms")}
                )
            else:
                more += 1
        ms = d.get("ms")
        if isinstance(ms, int | float) and not isinstance(ms, bool):
            row = {"step": i + 1, "turn": turn, "ms": ms, "fault": d.get("fault")}
            timed.append((float(ms), -i, row))
    slowest = [row for _, _, row in heapq.nlargest(limit, timed, key=lambda t: t[:2])]
    return {"faults": faults, "more_faults": more, "slowest": slowest}


def _fault_details(replay: dict[str, Any], seat: int) -> dict[tuple[Any, str], str]:
    """The referee's reason for each of the seat's faults, by (turn, kind)."""
    seats = replay.get("seats") or []
    entry = seats[seat] if 0 <= seat < len(seats) and isinstance(seats[seat], dict) else {}
    found: dict[tuple[Any, str], str] = {}
    for f in entry.get("faults") or []:
        if isinstance(f, dict):
            found.setdefault((f.get("turn"), str(f.get("kind"))), str(f.get("detail") or ""))
    return found
