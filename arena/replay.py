"""The replay document (docs/replay-format.md): writing, reading and verifying it.

A replay holds the game, options, seed, seats and every decision with its public events, so a
viewer can redraw every state and :func:`verify_replay` can re-simulate the match exactly.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from arena import json_bounds
from arena.outcome import final_ranks
from arena.protocol import canonical
from games import registry
from games.base import GameError, GameState

FORMAT = "meeple-arena-replay"
#: Optional keys added later keep the version (a reader treats them as absent when missing):
#: ``log_marks``, each seat's stderr per decision (docs/replay-format.md).
VERSION = 1
DECISION_CAP = "decision_cap"

#: Fields that hold wall-clock facts: they differ between two runs of the same match.
TIMING_KEYS = frozenset({"ms", "time_ms", "ready_ms", "started_at", "finished_at", "duration_ms"})


class ReplayError(ValueError):
    """A file that is not a replay this version can read."""


def state_digest(state: GameState) -> str:
    """A fingerprint of the whole state (including the RNG): equal digests, equal states."""
    return hashlib.sha256(canonical(state.to_json()).encode()).hexdigest()


def save_replay(replay: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(replay, separators=(",", ":")) + "\n", encoding="utf-8")


def load_replay(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ReplayError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        # a replay may come from anyone: bounded, a deep one is refused rather than recursed
        doc = json_bounds.loads(text)
    except ValueError as e:
        raise ReplayError(f"{path} is not JSON: {e}") from None
    check_header(doc)
    return doc


def check_header(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ReplayError(f'not a replay (no "format": "{FORMAT}")')
    if doc.get("version") != VERSION:
        raise ReplayError(
            f"replay version {doc.get('version')!r} not supported (this is {VERSION})"
        )


def without_timings(value: Any) -> Any:
    """A copy without wall-clock fields (and the match id): for comparing two runs."""
    if isinstance(value, dict):
        return {
            k: without_timings(v)
            for k, v in value.items()
            if k not in TIMING_KEYS and k != "match_id"
        }
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def verify_replay(doc: dict[str, Any]) -> list[str]:
    """Re-simulate ``doc`` and return every disagreement found (empty: the replay is sound).

    Checks each decision's seat, action and events against the engine, that retired seats
    only played the default after retiring, the final state digest and the final result."""
    try:
        check_header(doc)
        return _verify(doc)
    except ReplayError as e:
        return [str(e)]
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        return [f"malformed replay: {type(e).__name__}: {e}"]


def _verify(doc: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if doc.get("status") != "finished":
        return [f"match status is {doc.get('status')!r}: only finished matches can be verified"]
    try:
        game = registry.get_game(doc["game"])
        state = game.new_game(len(doc["seats"]), doc["seed"], doc["options"])
    except GameError as e:
        return [f"cannot set the match up again: {e}"]
    seats = doc["seats"]
    for n, d in enumerate(doc["decisions"]):
        where = f"decision {n}"
        if d["turn"] != n:
            problems.append(f"{where}: turn is {d['turn']}, expected {n}")
        seat = state.current_seat()
        if seat is None:
            problems.append(f"{where}: the game was already over")
            return problems
        if d["seat"] != seat:
            problems.append(f"{where}: seat {d['seat']} played but seat {seat} was to play")
            return problems
        legal = state.legal_actions()
        index = d["index"]
        if not isinstance(index, int) or not 0 <= index < len(legal):
            problems.append(f"{where}: index {index!r} outside the {len(legal)} legal actions")
            return problems
        if canonical(legal[index]) != canonical(d["action"]):
            problems.append(
                f"{where}: action {canonical(d['action'])} is not legal action "
                f"{index} ({canonical(legal[index])})"
            )
            return problems
        retired_turn = seats[seat].get("retired_turn")
        if retired_turn is not None and n >= retired_turn and (index != 0 or not d.get("default")):
            problems.append(
                f"{where}: seat {seat} was retired at turn {retired_turn} but did "
                "not play the default"
            )
        events = state.apply(legal[index])
        if canonical(events) != canonical(d.get("events", [])):
            problems.append(f"{where}: events differ from the engine's")
    if doc.get("final_state") is not None and state_digest(state) != doc["final_state"]:
        problems.append("final state digest differs from the engine's")
    problems += _check_result(doc, state)
    return problems


def _check_result(doc: dict[str, Any], state: GameState) -> list[str]:
    result = doc["result"]
    seats = doc["seats"]
    retired = [s.get("retired_turn") is not None for s in seats]
    if result.get("reason") == DECISION_CAP:
        if state.is_over():
            return ["result says the decision cap ended the match, but the game was over"]
        if len(doc["decisions"]) != doc.get("max_decisions"):
            return ["decision cap reached before max_decisions decisions"]
        game_ranks = [1] * len(seats)
        scores: list[Any] = [0] * len(seats)
    else:
        if not state.is_over():
            return ["the decisions end before the game does"]
        engine = state.result()
        game_ranks, scores = engine.ranks, engine.scores
        if result.get("game_ranks") != game_ranks:
            return [f"game ranks {result.get('game_ranks')} differ from the engine's {game_ranks}"]
    problems = []
    if canonical(result.get("scores")) != canonical(scores):
        problems.append(f"scores {result.get('scores')} differ from the engine's {scores}")
    ranks = final_ranks(game_ranks, retired)
    if result.get("ranks") != ranks:
        problems.append(f"ranks {result.get('ranks')} differ from the re-simulated {ranks}")
    for i, s in enumerate(seats):
        if s.get("rank") != ranks[i] or canonical(s.get("score")) != canonical(scores[i]):
            problems.append(
                f"seat {i}: score/rank {s.get('score')}/{s.get('rank')} differ from "
                f"{scores[i]}/{ranks[i]}"
            )
    return problems
