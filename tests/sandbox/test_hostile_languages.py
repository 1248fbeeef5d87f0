"""Hostile bots in the other languages (tests/sandbox/hostile/<lang>/), each built and played in
seat 0 of a real match under the Docker backend, against a well-behaved Python bot.

A C++ fork bomb, a Java memory bomb, a Node busy loop, a Go program starting goroutines without
end and a Rust program filling its disk: each is contained by its container's limits (pids,
memory, the move clock, the tmpfs size), its seat gets a fault with a clear reason, the other
seat finishes without one, and nothing is left behind (no container of the match, no process,
no file on the host). Compiler bombs are in test_docker_languages.py. Marked ``docker``: they
fail under CI=true without an engine, and skip locally.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.referee import TimeControl, run_match
from sandbox.base import Sandbox
from sandbox.languages import get_language

from .conftest import BOTS, HOSTILE, descendants, docker_or_fail
from .test_docker_languages import _images_or_skip

# The Python hostile bots' limits: small, so each match is over within seconds of the attack.
from .test_sandbox_hostile import LIMITS, RecordingDockerSandbox, _container_exists

pytestmark = pytest.mark.docker

START_MS = 20_000  # a cold JVM on a loaded machine: start-up is not what these tests measure


@dataclass
class Attack:
    lang: str
    source: str  # the file in tests/sandbox/hostile/<lang>/
    kinds: set[str]  # seat 0's fault must be one of these
    log_has: tuple[str, ...]  # its stderr must contain one of these
    move_ms: int = 500  # attacks that must end by a kill, not the clock, get more time


ATTACKS: dict[str, Attack] = {
    # the pids limit refuses fork(); the bot then never answers
    "cpp_fork_bomb": Attack("cpp", "main.cpp", {"timeout"}, ("fork refused after",)),
    # -Xmx (OutOfMemoryError, exit 1) or the container's memory (killed): a crash either way
    "java_memory_bomb": Attack(
        "java", "Main.java", {"crash"}, ("OutOfMemoryError", "Killed"), move_ms=10_000
    ),
    # the event loop never turns again: only the clock ends it
    "javascript_busy_loop": Attack("javascript", "main.js", {"timeout"}, ("spinning",)),
    # goroutines holding 1 MiB each, until the container's memory kills the process
    "go_goroutine_bomb": Attack("go", "main.go", {"crash"}, ("goroutines started",), 10_000),
    # files of 4 MiB (under the file-size cap) until the tmpfs is full; then it exits 3
    "rust_disk_filler": Attack("rust", "main.rs", {"crash"}, ("fill stopped after",), 5000),
}


def test_every_hostile_language_bot_has_an_attack() -> None:
    files = {p.relative_to(HOSTILE).as_posix() for p in HOSTILE.glob("*/*") if p.is_file()}
    assert files == {f"{a.lang}/{a.source}" for a in ATTACKS.values()}


@pytest.fixture(scope="module")
def small_game() -> tuple[str, int]:
    from games.simulate import shortest_game

    slug, players, _ = shortest_game()
    return slug, players


@pytest.fixture
def docker_backend() -> Iterator[Sandbox]:
    docker_or_fail()
    sb = RecordingDockerSandbox(pool_size=0)
    yield sb


def _bot(attack: Attack, tmp_path: Path) -> Path:
    """A copy of the hostile source: its build writes next to it, never into the repository."""
    dest = tmp_path / attack.source
    dest.write_bytes((HOSTILE / attack.lang / attack.source).read_bytes())
    return dest


def _host_tmp_fill() -> set[str]:
    return {p.name for p in Path("/tmp").glob("fill*")}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_hostile_language_bot_is_contained(
    name: str, docker_backend, small_game, tmp_path: Path
) -> None:
    attack = ATTACKS[name]
    sb = docker_backend
    _images_or_skip(sb, attack.lang)
    game, players = small_game
    match_id = f"hostile-{name}-{os.getpid()}"
    bots = [str(_bot(attack, tmp_path))] + [str(BOTS / "good.py")] * (players - 1)
    host_fill = _host_tmp_fill()
    before = descendants()
    clock = TimeControl(start_ms=START_MS, move_ms=attack.move_ms, bank_ms=0)
    t0 = time.monotonic()
    out = run_match(game, bots, seed=5, time=clock, limits=LIMITS, sandbox=sb, match_id=match_id)
    took = time.monotonic() - t0

    # the match finished; the other seats played without a fault
    assert out.status == "finished", out.error
    for other in out.seats[1:]:
        assert other.status == "ok" and other.faults == [], other
    # seat 0 joined (it said ready), then its attack became a fault with a reason
    faults = out.seats[0].faults
    assert not [f for f in faults if f["kind"] == "no_ready"], faults
    hits = [f for f in faults if f["kind"] in attack.kinds]
    assert hits, f"{name}: expected a fault in {attack.kinds}, got {faults}"
    assert hits[0]["detail"], hits[0]
    log = out.replay["logs"][0]
    assert len(log.encode()) <= LIMITS.stderr_cap_bytes + 200, "stderr not capped"
    assert any(s in log for s in attack.log_has) or "memory" in hits[0]["detail"], (
        hits[0],
        log[-2000:],
    )
    _check_what_it_says(name, log, hits[0]["detail"])

    # nothing remains: no container of the match, no process, no file on the host
    assert len(sb.started) == players
    assert [c.id for c in sb.containers({"match": match_id})] == []
    for b in sb.started:
        assert not _container_exists(sb, b.container.id), "container left behind"
    assert descendants() - before == set(), "processes left behind"
    assert _host_tmp_fill() == host_fill, "the bot wrote into the host's /tmp"
    assert took < 90, f"the match took {took:.0f} s"


def _check_what_it_says(name: str, log: str, detail: str) -> None:
    """The numbers the bot reports: stopped by the sandbox's limits, not by its own end."""
    if name == "cpp_fork_bomb":  # the parent's own count: under the container's pids cap
        made = int(log.split("fork refused after ")[1].split(":")[0])
        assert made < max(LIMITS.pids, get_language("cpp").pids), log
    if name == "rust_disk_filler":  # stopped by the tmpfs size, not by the host's disk
        mb = int(log.split("fill stopped after ")[1].split()[0])
        assert LIMITS.tmpfs_mb - 8 <= mb <= LIMITS.tmpfs_mb, log
        assert "No space left" in log, log
    if name == "java_memory_bomb" and "OutOfMemoryError" not in log:
        assert "memory" in detail, detail  # killed by the container's limit instead
