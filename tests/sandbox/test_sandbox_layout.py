"""The sandbox's shape, checked: every backend's bot is the one pipe class, no module borrows
another's private names, and no module or function outgrows what one reader holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sandbox.docker_bot import DockerBot
from sandbox.pipes import PipeBot
from sandbox.pool_bot import PooledBot
from sandbox.process import ProcessBot

SANDBOX = Path(__file__).resolve().parents[2] / "sandbox"
MODULES = sorted(SANDBOX.glob("*.py"))


def test_every_backend_talks_through_the_one_pipe_class() -> None:
    for bot in (ProcessBot, DockerBot, PooledBot):
        assert issubclass(bot, PipeBot)
        # the loop itself is PipeBot's alone: no backend has a copy of its own
        for loop in ("send_line", "read_line", "_pump", "_drain_err", "close"):
            assert loop not in vars(bot), f"{bot.__name__} redefines {loop}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_private_name_crosses_modules(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sandbox"):
            parts = (node.module or "").split(".")
            names = [a.name for a in node.names]
            private = [n for n in [*parts, *names] if n.startswith("_")]
            assert not private, f"{path.name}:{node.lineno} imports {private}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_modules_and_functions_stay_small(path: Path) -> None:
    text = path.read_text()
    assert len(text.splitlines()) <= 400, f"{path.name} is over 400 lines: split it"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            assert length <= 60, f"{path.name}: {node.name} is {length} lines"


def _sandbox_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sandbox."):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("sandbox.")}
    return found


def test_backends_do_not_import_each_other() -> None:
    # A backend is reached by name through sandbox/registry.py, never from another backend.
    process = {"sandbox.process", "sandbox.uids"}
    docker = {p.stem for p in MODULES if p.stem.startswith(("docker", "pool"))}
    for stem in docker:
        assert not _sandbox_imports(SANDBOX / f"{stem}.py") & process, stem
    for module in process:
        imported = {
            m.removeprefix("sandbox.") for m in _sandbox_imports(SANDBOX / f"{module[8:]}.py")
        }
        assert not imported & docker, module
