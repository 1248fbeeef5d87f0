"""Fixtures for the sandbox tests: backends, bot preparation, and leftover checks.

Docker tests are marked ``docker``; under CI=true they FAIL when no engine answers or the
runtime image is missing, and locally they skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sandbox import uids
from sandbox.base import BotCode, Sandbox, SandboxError
from sandbox.code import prepare_bot, release_bot
from tests.conftest import descendants as _descendants

HERE = Path(__file__).parent
BOTS = HERE / "bots"
HOSTILE = HERE / "hostile"


def pool_processes() -> dict[int, list[int]]:
    """Live processes running under any sandbox pool uid."""
    return {
        u: p
        for u, p in uids.processes_by_uid().items()
        if uids.UID_BASE <= u < uids.UID_BASE + uids.UID_COUNT
    }


def descendants(root: int | None = None) -> set[int]:
    """Live processes below ``root``; the sandbox's checks leave zombies to their reaper."""
    return _descendants(root, include_zombies=False)


@pytest.fixture
def prepared() -> Iterator:
    made: list[BotCode] = []

    def _prepare(path: str | Path, **how: Any) -> BotCode:
        code = prepare_bot(path, **how)
        made.append(code)
        return code

    yield _prepare
    for c in made:
        release_bot(c)


@pytest.fixture
def process_sandbox() -> Iterator[Sandbox]:
    from sandbox.process import ProcessSandbox

    sb = ProcessSandbox()
    yield sb
    sb.reap({"test": "1"})


def docker_or_fail() -> Sandbox:
    from sandbox.docker import DockerSandbox

    sb = DockerSandbox()
    try:
        sb.check()
    except SandboxError as e:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but the Docker sandbox is unavailable: {e}")
        pytest.skip(f"Docker sandbox unavailable: {e}")
    return sb


@pytest.fixture
def docker_sandbox() -> Iterator[Sandbox]:
    from sandbox.workers import worker_id

    sb = docker_or_fail()
    yield sb
    # only this test process's leftovers: another xdist worker's test may be mid-match
    sb.reap({"test": "1", "worker": worker_id()})
