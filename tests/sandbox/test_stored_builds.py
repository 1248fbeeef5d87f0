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
from sandbox.built import BUILT, is_built
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
    code = prepared(stored, language=key, built=True)  # as the match spec says it
    assert is_built(code)
    # The zip still carries the platform's mark, for workers from before the spec said it.
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
        _plays(docker, prepared(stored, language=key, built=True))
    finally:
        docker.reap({"test": "1", "worker": worker_id()})  # this process's only


def test_a_stored_build_is_built_only_when_its_preparer_says_so(
    prepared: Any, tmp_path: Path
) -> None:
    """Its files (the marks included) say nothing: unpacked without the spec's word, a stored
    build is a folder of sources to build again; a build that says it is another language is
    run as the language the spec names."""
    if shutil.which("g++") is None:
        pytest.skip("this machine has no C++ toolchain")
    stored = _stored(tmp_path, "cpp", "process")
    assert not is_built(prepared(stored))
    assert prepared(stored, language="cpp", built=True).language == "cpp"
    assert not is_built(prepared(stored, language="javascript", built=True))  # not compiled
