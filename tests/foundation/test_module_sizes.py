"""Rooms stay small: no module over 400 lines and no function over 60, outside migrations and
tests (issue 19). A module that grows past it splits along the seams it marks."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

ROOMS = ("games", "sandbox", "arena", "platform", "bench")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _modules() -> list[Path]:
    found = []
    for room in ROOMS:
        for path in (REPO / room).rglob("*.py"):
            if "migrations" not in path.parts and "starters" not in path.parts:
                found.append(path)
    return found


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
