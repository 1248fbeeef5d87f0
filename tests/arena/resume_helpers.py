"""Bots and helpers for the re-run and ``replay why`` tests (a module of its own: test files
import it by name)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from arena.cli import main
from arena.replay import load_replay

#: The game of these tests: three seats, a seeded random built-in and a greedy one.
GAME = "trnd"
SANDBOX = os.environ.get("ARENA_TEST_SANDBOX", "process")

#: A deterministic program bot: index ``(turn * 7 + seat + SHIFT) % n``, "turn T" on stderr.
#: ``FAULT_ON`` lists its own acts (1 = its first) it answers with a line that is not JSON.
PICKER = """\
import json, sys
SHIFT, FAULT_ON = {shift}, {fault_on}
acts = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({{"type": "ready", "name": "picker"}}), flush=True)
    elif msg["type"] == "act":
        acts += 1
        turn, n = msg["turn"], len(msg["legal_actions"])
        sys.stderr.write("ACT " + line.strip() + "\\n")
        sys.stderr.write("turn %d thinking\\n" % turn)
        sys.stderr.flush()
        if acts in FAULT_ON:
            print("oops, not json", flush=True)
        else:
            index = (turn * 7 + msg["seat"] + SHIFT) % n
            print(json.dumps({{"action_index": index, "turn": turn}}), flush=True)
    else:
        break
"""

#: A program bot that plays the actions it was given for each turn (by value, not index).
REPLAYER = """\
import json, sys
ACTIONS = {actions}
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({{"type": "ready", "name": "replayer"}}), flush=True)
    elif msg["type"] == "act":
        sys.stderr.write("turn %d\\n" % msg["turn"]); sys.stderr.flush()
        print(json.dumps({{"action": ACTIONS[str(msg["turn"])], "turn": msg["turn"]}}), flush=True)
    else:
        break
"""


def picker(folder: Path, name: str, shift: int = 0, fault_on: tuple[int, ...] = ()) -> str:
    path = folder / f"{name}.py"
    path.write_text(PICKER.format(shift=shift, fault_on=list(fault_on)))
    return str(path)


def replayer(folder: Path, record: dict[str, Any], seat: int) -> str:
    """A bot that plays ``seat``'s recorded actions."""
    actions = {str(d["turn"]): d["action"] for d in record["decisions"] if d["seat"] == seat}
    path = folder / f"replayer{seat}.py"
    path.write_text(REPLAYER.format(actions=repr(json.loads(json.dumps(actions)))))
    return str(path)


def cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def record(folder: Path, bots: list[str], seed: int, *extra: str) -> tuple[str, dict[str, Any]]:
    """Play a match with ``arena play``; the replay's path and document."""
    path = folder / f"record-{seed}.json"
    argv = ["play", GAME, *bots, "--seed", str(seed), "--sandbox", SANDBOX, "--json"]
    code = main([*argv, "--replay", str(path), *extra])
    assert code == 0
    return str(path), load_replay(path)


def first_decision(doc: dict[str, Any], seat: int, at_least: int) -> int:
    return next(d["turn"] for d in doc["decisions"][at_least:] if d["seat"] == seat)
