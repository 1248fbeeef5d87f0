"""Backends by name (sandbox/registry.py): ``get_sandbox`` looks names up in the registry, an
unknown name lists the registered ones, a new backend plugs in with one ``register`` that
describes it, and the settings and the command line offer what the registry names."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest
from django.core.exceptions import ImproperlyConfigured
from meeple.env import sandbox_choice

from arena.cli.shared import add_time_args
from sandbox import BACKENDS, SandboxError, get_sandbox, registry
from sandbox.base import BotCode, BotProcess, Limits, Sandbox
from sandbox.process import ProcessSandbox

#: How a test's backend describes itself.
ABOUT = {"summary": "records what it is asked", "needs": "nothing"}


class _Recorder(Sandbox):
    name = "recorder"

    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        raise SandboxError("a recorder starts nothing")


@pytest.fixture
def recorder() -> Iterator[type[_Recorder]]:
    registry.register("recorder", _Recorder, **ABOUT)
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
        registry.register("recorder", ProcessSandbox, **ABOUT)
    registry.register("recorder", ProcessSandbox, replace=True, **ABOUT)
    assert isinstance(get_sandbox("recorder"), ProcessSandbox)


@pytest.mark.parametrize("name", ["", "Docker", " vm", "my vm"])
def test_a_name_is_lower_case_without_spaces(name) -> None:
    with pytest.raises(ValueError, match="lower case"):
        registry.register(name, ProcessSandbox, **ABOUT)


def test_unregistering_an_unknown_name_is_an_error() -> None:
    with pytest.raises(KeyError):
        registry.unregister("never-registered")


def test_a_factory_error_reaches_the_caller() -> None:
    def broken() -> Sandbox:
        raise SandboxError("run deploy/build-vm.sh first")

    registry.register("broken", broken, **ABOUT)
    try:
        with pytest.raises(SandboxError, match="build-vm"):
            get_sandbox("broken")
    finally:
        registry.unregister("broken")


@pytest.mark.parametrize("backend", registry.backends(), ids=registry.names())
def test_every_backend_describes_itself(backend: registry.Backend) -> None:
    assert backend.summary and backend.needs and callable(backend.factory)
    assert backend.shown().startswith(f"{backend.name}: {backend.summary} (")
    assert ("a security boundary" in backend.shown()) == backend.security_boundary


@pytest.mark.parametrize("part", ["summary", "needs"])
def test_a_backend_that_does_not_describe_itself_is_refused(part: str) -> None:
    with pytest.raises(ValueError, match="what it is and what it needs"):
        registry.register("vague", ProcessSandbox, **{**ABOUT, part: " "})
    assert "vague" not in registry.names()


def test_the_docker_backend_alone_is_a_boundary_and_says_so() -> None:
    """What a backend says of itself is what it is (the process backend is no boundary)."""
    shown = {b.name: b.security_boundary for b in registry.backends()}
    assert shown == {"auto": False, "docker": True, "process": False}
    assert ProcessSandbox.is_security_boundary is False


def test_the_command_line_offers_the_registered_backends(recorder) -> None:
    parser = argparse.ArgumentParser()
    add_time_args(parser)
    option = next(a for a in parser._actions if a.dest == "sandbox")
    assert tuple(option.choices or ()) == registry.names()
    for backend in registry.backends():
        assert backend.shown() in (option.help or "")


def test_the_settings_accept_what_the_registry_names(recorder, monkeypatch) -> None:
    monkeypatch.setenv("ARENA_SANDBOX", "Recorder")
    assert sandbox_choice() == "recorder"
    monkeypatch.setenv("ARENA_SANDBOX", "chroot")
    with pytest.raises(ImproperlyConfigured, match="one of auto, docker, process, recorder"):
        sandbox_choice()
