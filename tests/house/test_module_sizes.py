"""Rooms stay small: no module over 400 lines and no function over 60, outside migrations and
tests (issue 19). A module that grows past it splits along the seams it marks."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
#: not code of ours: the tests, the environment, local data and build output
NOT_ROOMS = {"tests", "data", "build", "dist"}


def _modules() -> list[Path]:
    """Every Python file of the repository (every folder that holds code, and manage.py), but
    the tests and the migrations (Django writes those)."""
    found = [path for path in REPO.glob("*.py")]
    for room in REPO.iterdir():
        if not room.is_dir() or room.name in NOT_ROOMS or room.name.startswith("."):
            continue
        if room.name.endswith(".egg-info") or (room / "pyvenv.cfg").exists():
            continue
        found += [path for path in room.rglob("*.py") if "migrations" not in path.parts]
    return found


def test_every_room_with_code_is_measured() -> None:
    rooms = {path.relative_to(REPO).parts[0] for path in _modules()}
    expected = {"games", "sandbox", "arena", "platform", "bench", "deploy", "docs", "manage.py"}
    assert expected <= rooms, expected - rooms


def test_no_module_over_400_lines_and_no_function_over_60() -> None:
    modules = _modules()
    assert len(modules) > 100
    too_long = []
    for path in modules:
        text = path.read_text()
        name = path.relative_to(REPO)
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}: {node.name}() {length} lines")
    assert not too_long, "\n".join(too_long)
