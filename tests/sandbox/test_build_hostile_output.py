"""A build is hostile code (issue 28, items 1-2): a Cargo ``build.rs`` of the uploader's plants a
link to a host file, a FIFO, a link to a device or a huge file at every path the worker reads
or writes after a build (the build log, the marks ``.meeple-built`` and ``.meeple-language``,
the program ``bot``, a file zipped into the artifact), in a Docker build and a host build
(``build_upload``, what the worker's check runs). Nothing of the host is read into the failure
reason or the artifact, no host file is written or changed, nothing blocks (each build runs in
a thread joined with a generous bound), and a build that leaves more than
``ARTIFACT_MAX_BYTES`` fails with the limit's message, nothing stored and its folder removed.
"""

from __future__ import annotations

import io
import os
import shutil
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest

from sandbox.build_upload import build_upload
from sandbox.built import ARTIFACT_MAX_BYTES, BUILT, LANGUAGE_MARK
from sandbox.docker_build import LOG
from sandbox.host_build import BuildFailed
from sandbox.languages import BINARY, get_language
from tests.language_bots import BOTS

from .conftest import docker_or_fail

SECRET = b"host-canary-secret-5b1e"
#: Long enough for a Cargo build on a loaded machine (the build's own limit is 120 s); a
#: build that blocks on a FIFO never ends.
BOUND_S = 400.0
#: The paths the worker reads or writes in the bot's folder after a build (the program's
#: own test is apart: a link there leaves no program).
PATHS = [LOG, BUILT, LANGUAGE_MARK, "notes.txt"]

CARGO_TOML = '[package]\nname = "planter"\nversion = "0.1.0"\nedition = "2021"\n'
BUILD_RS = rb"""
use std::fs;
use std::os::unix::fs::symlink;
use std::process::Command;

// What to plant is in plant.txt: "kind path [target]" per line (the build's cwd is the bot's).
fn main() {
    let plan = fs::read_to_string("plant.txt").unwrap();
    let mut fail = false;
    for line in plan.lines() {
        let w: Vec<&str> = line.splitn(3, ' ').collect();
        let path = w.get(1).copied().unwrap_or("");
        let (kind, target) = (w[0], w.get(2).copied().unwrap_or(""));
        let _ = fs::remove_file(path);
        match kind {
            "link" => symlink(target, path).unwrap(),
            "fifo" => { Command::new("mkfifo").arg(path).status().unwrap(); }
            "huge" => fs::write(path, vec![b'x'; target.parse::<usize>().unwrap()]).unwrap(),
            "fail" => fail = true,
            "sleep" => std::thread::sleep(std::time::Duration::from_secs(600)),
            _ => {}
        }
    }
    if fail {
        eprintln!("the build script fails on purpose");
        std::process::exit(1);
    }
}
"""


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    """A host file outside every bot folder, which no build may read or change."""
    folder = tmp_path / "host"
    folder.mkdir()
    path = folder / "secret.txt"
    path.write_bytes(SECRET)
    os.chmod(path, 0o600)
    return path


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Bot folders of this test alone (the same path for the engine: a local dockerd)."""
    base = tmp_path / "bots"
    base.mkdir()
    monkeypatch.setenv("ARENA_BOT_DIR", str(base))
    return base


def _crate(plan: list[str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(
            "Cargo.toml", '[package]\nname = "planter"\nversion = "0.1.0"\nedition = "2021"\n'
        )
        zf.writestr("build.rs", BUILD_RS)
        zf.writestr("src/main.rs", BOTS["rust"][1])
        zf.writestr("plant.txt", "\n".join(plan) + "\n")
    return buf.getvalue()


def _backend(name: str) -> str:
    if name == "docker":
        docker = docker_or_fail()
        try:
            docker.client.images.get(get_language("rust").build_image)
        except Exception:
            pytest.fail(
                f"{get_language('rust').build_image} is missing: run deploy/build-runtime-image.sh"
            )
    elif any(shutil.which(t) is None for t in get_language("rust").host_tools):
        pytest.skip("this machine has no Rust toolchain")
    return name


def _build(plan: list[str], backend: str) -> bytes | BaseException | None:
    """``build_upload`` of a crate planting ``plan``, in a thread: its artifact or what it
    raised; the test fails when it is still running after ``BOUND_S`` (it blocked)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(build_upload("bot.zip", _crate(plan), "rust", sandbox=backend))
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND_S)
    assert not thread.is_alive(), f"the build blocked for over {BOUND_S:.0f} s"
    return outcome[0]


def _host_untouched(canary: Path) -> None:
    assert canary.read_bytes() == SECRET
    assert canary.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in canary.parent.iterdir()) == ["secret.txt"]


def _artifact_clean(artifact: bytes, canary: Path) -> dict[str, bytes]:
    assert SECRET not in artifact
    with zipfile.ZipFile(io.BytesIO(artifact)) as zf:
        files = {info.filename: zf.read(info) for info in zf.infolist()}
        modes = {info.filename: info.external_attr >> 16 for info in zf.infolist()}
    assert all(SECRET not in data for data in files.values())
    assert all(mode & 0o170000 == 0o100000 for mode in modes.values()), modes  # files only
    assert LOG not in files
    assert files[BUILT] == b"rust" and files[LANGUAGE_MARK] == b"rust"  # the platform's own
    assert BINARY in files
    return files


BACKENDS = [pytest.param("docker", marks=pytest.mark.docker), "process"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", ["link", "fifo", "device"])
def test_what_a_build_plants_is_never_followed(
    backend: str, kind: str, canary: Path, bot_dir: Path
) -> None:
    """Links to a host file (and to its folder), FIFOs, or links to /dev/zero at every path
    the worker reads or writes: the build succeeds, its artifact holds its own files and the
    platform's marks only, and the host file is unchanged."""
    _backend(backend)
    target = {"link": str(canary), "fifo": "", "device": "/dev/zero"}[kind]
    verb = "fifo" if kind == "fifo" else "link"
    plan = [f"{verb} {path} {target}".rstrip() for path in PATHS]
    if kind == "link":
        plan.append(f"link host-folder {canary.parent}")
    result = _build(plan, backend)
    assert isinstance(result, bytes), result
    files = _artifact_clean(result, canary)
    assert "notes.txt" not in files and not any(f.startswith("host-folder") for f in files)
    _host_untouched(canary)
    assert list(bot_dir.glob("bot-*")) == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", ["link", "fifo", "device"])
def test_a_failed_builds_log_is_never_followed(
    backend: str, kind: str, canary: Path, bot_dir: Path
) -> None:
    """The log replaced, then the build fails: its reason (for the owner, in an email) names
    nothing of the host, and reading it does not block."""
    _backend(backend)
    target = {"link": str(canary), "fifo": "", "device": "/dev/zero"}[kind]
    verb = "fifo" if kind == "fifo" else "link"
    result = _build([f"{verb} {LOG} {target}".rstrip(), "fail"], backend)
    assert isinstance(result, BuildFailed), result
    assert SECRET.decode() not in str(result)
    assert "build failed" in str(result)
    _host_untouched(canary)
    assert list(bot_dir.glob("bot-*")) == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_link_planted_as_the_program_is_no_program(
    backend: str, canary: Path, bot_dir: Path
) -> None:
    """``bot`` a link to a host file: no program is taken from it (the build fails or keeps
    a program of its own); the host file is neither read nor made executable."""
    _backend(backend)
    result = _build([f"link {BINARY} {canary}"], backend)
    if isinstance(result, bytes):
        _artifact_clean(result, canary)
    else:
        assert isinstance(result, BuildFailed), result
        assert SECRET.decode() not in str(result)
    _host_untouched(canary)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("path", [LOG, "notes.txt"])
def test_a_build_that_leaves_too_much_fails_and_stores_nothing(
    backend: str, path: str, canary: Path, bot_dir: Path
) -> None:
    """A 1 KB upload whose ``build.rs`` writes past the cap: the bot's fault, with the
    limit's message; no artifact, and its folder is removed."""
    _backend(backend)
    result = _build([f"huge {path} {ARTIFACT_MAX_BYTES + (4 << 20)}"], backend)
    assert isinstance(result, BuildFailed), result
    assert f"the limit is {ARTIFACT_MAX_BYTES // (1 << 20)} MB" in str(result)
    assert list(bot_dir.glob("bot-*")) == []
    _host_untouched(canary)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_timed_out_build_stores_nothing_and_leaves_no_folder(
    backend: str, canary: Path, bot_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build script that writes, then never ends: stopped at the build's wall-clock limit
    (5 s here), nothing returned to store, its folder removed."""
    import functools

    import sandbox.build_upload
    import sandbox.host_build
    from sandbox.docker_build import build_in_docker

    _backend(backend)
    monkeypatch.setattr(sandbox.host_build, "BUILD_TIMEOUT_S", 5)
    in_docker = functools.partial(build_in_docker, timeout_s=5)
    monkeypatch.setattr(sandbox.build_upload, "build_in_docker", in_docker)
    result = _build([f"huge notes.txt {1 << 20}", "sleep"], backend)
    assert isinstance(result, BuildFailed), result
    assert "took over 5 s and was stopped" in str(result)
    assert list(bot_dir.glob("bot-*")) == []
    _host_untouched(canary)
