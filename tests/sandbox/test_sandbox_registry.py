"""Backends by name (sandbox/registry.py): ``get_sandbox`` looks names up in the registry, an
unknown name lists the registered ones, and a new backend plugs in with one ``register``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox import BACKENDS, SandboxError, get_sandbox, registry
from sandbox.base import BotCode, BotProcess, Limits, Sandbox
from sandbox.process import ProcessSandbox


class _Recorder(Sandbox):
    name = "recorder"

    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        raise SandboxError("a recorder starts nothing")


@pytest.fixture
def recorder() -> Iterator[type[_Recorder]]:
    registry.register("recorder", _Recorder)
    yield _Recorder
    registry.unregister("recorder")


def test_the_built_in_backends_are_registered_in_order() -> None:
    assert registry.names()[:3] == BACKENDS == ("auto", "docker", "process")


def test_an_unknown_name_lists_the_registered_ones(recorder) -> None:
    with pytest.raises(SandboxError) as err:
        get_sandbox("vm")
    assert str(err.value) == "unknown sandbox 'vm': choose one of auto, docker, process, recorder"


def test_a_registered_backend_is_found_by_name(recorder, monkeypatch) -> None:
    assert isinstance(get_sandbox("recorder"), recorder)
    assert isinstance(get_sandbox(" Recorder "), recorder)  # as ARENA_SANDBOX may spell it
    monkeypatch.setenv("ARENA_SANDBOX", "recorder")
    assert isinstance(get_sandbox(None), recorder)
    assert isinstance(get_sandbox("process"), ProcessSandbox)


def test_a_name_is_registered_once(recorder) -> None:
    with pytest.raises(ValueError, match="already registered"):
        registry.register("recorder", ProcessSandbox)
    registry.register("recorder", ProcessSandbox, replace=True)
    assert isinstance(get_sandbox("recorder"), ProcessSandbox)


@pytest.mark.parametrize("name", ["", "Docker", " vm", "my vm"])
def test_a_name_is_lower_case_without_spaces(name) -> None:
    with pytest.raises(ValueError, match="lower case"):
        registry.register(name, ProcessSandbox)


def test_unregistering_an_unknown_name_is_an_error() -> None:
    with pytest.raises(KeyError):
        registry.unregister("never-registered")


def test_a_factory_error_reaches_the_caller() -> None:
    def broken() -> Sandbox:
        raise SandboxError("run deploy/build-vm.sh first")

    registry.register("broken", broken)
    try:
        with pytest.raises(SandboxError, match="build-vm"):
            get_sandbox("broken")
    finally:
        registry.unregister("broken")
