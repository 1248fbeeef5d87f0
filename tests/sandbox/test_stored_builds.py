"""A version's stored build (what the worker's check makes once: ``sandbox.build_upload``) runs as
it is on either backend: no compiler runs when a match starts it, and its program is
executable although unpacking keeps no file modes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sandbox import Limits
from sandbox.build_upload import build_upload
from sandbox.built import BUILT
from sandbox.workers import worker_id
from tests.language_bots import BOTS

from .conftest import docker_or_fail

LABELS = {"test": "1", "match": "stored-builds"}


def _stored(tmp_path: Path, key: str, sandbox: str) -> Path:
    name, data = BOTS[key]
    built = build_upload(name, data, key, sandbox=sandbox)
    assert built is not None
    path = tmp_path / f"{key}.built.zip"
    path.write_bytes(built)
    return path


def _plays(backend: Any, code: Any) -> None:
    bot = backend.start(code, labels=LABELS, limits=Limits())
    try:
        bot.send_line(json.dumps({"type": "start", "players": 2, "seat": 0}))
        assert json.loads(bot.read_line(timeout_s=30) or "{}") == {"type": "ready"}, (
            bot.exit_reason(),
            bot.stderr_text(),
        )
    finally:
        bot.close()


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("compiled when a match started the bot")

    monkeypatch.setattr("sandbox.process.build_bot", refuse)
    monkeypatch.setattr("sandbox.docker.build_in_docker", refuse)


@pytest.mark.parametrize("key", ["cpp", "java"])
def test_the_process_backend_runs_a_stored_build(
    key: str, process_sandbox: Any, prepared: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from sandbox.languages import get_language

    if any(shutil.which(t) is None for t in get_language(key).host_tools):
        pytest.skip(f"this machine has no {key} toolchain")
    stored = _stored(tmp_path, key, "process")
    _no_compiling(monkeypatch)
    code = prepared(stored)
    assert (code.root / BUILT).read_text() == key
    _plays(process_sandbox, code)


@pytest.mark.docker
@pytest.mark.parametrize("key", ["cpp", "java", "go"])
def test_the_docker_backend_runs_a_stored_build(
    key: str, prepared: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    docker = docker_or_fail()
    try:
        stored = _stored(tmp_path, key, "docker")
        _no_compiling(monkeypatch)
        _plays(docker, prepared(stored))
    finally:
        docker.reap({"test": "1", "worker": worker_id()})  # this process's only
