"""A Docker build's folder has a real quota (issue 28, item 2): the build runs in a tmpfs of
``built.BUILD_FOLDER_MB`` with the bot's sources mounted read-only, and what it leaves comes
out as a tar on the container's stdout, read by the worker as hostile input
(``sandbox.build_archive``).

A Cargo ``build.rs`` that writes 1 GiB into its folder meets ENOSPC inside the container, the
build fails with the limit's message, and the worker's disk never holds more than the cap for
it; a build that writes into the container's stdout itself (``/proc/1/fd/1``) fails cleanly,
as the bot's fault. The stream reader is also given forged streams directly: paths out of the
folder, links, garbage before or after the archive, a stream past its cap, one that stalls.
"""

from __future__ import annotations

import contextlib
import io
import os
import tarfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from sandbox import untrusted
from sandbox.build_archive import (
    NOT_A_LOG,
    AttachedStdout,
    BadArchive,
    StreamTimeout,
    unpack,
)
from sandbox.build_upload import build_upload
from sandbox.built import ARTIFACT_MAX_BYTES, BUILD_FOLDER_MB
from sandbox.docker_build import LOG
from sandbox.host_build import BuildFailed
from sandbox.languages import get_language
from tests.language_bots import BOTS

from .conftest import docker_or_fail
from .tar_stream import attached, frame, tar_of

BOUND_S = 400.0
_MB = 1 << 20
_BLOCK = 512

BUILD_RS = rb"""
use std::fs;
use std::io::Write;

// plan.txt says what to do (the build's cwd is the bot's folder).
fn main() {
    let plan = fs::read_to_string("plan.txt").unwrap();
    let kind = plan.trim();
    if kind.starts_with("stdout") {
        // Into the container's own stdout, where the worker reads the folder's archive.
        let what = if kind == "stdout-forged" { fs::read("forged.tar").unwrap() }
            else { b"this is not an archive\n".repeat(200) };
        let mut out = fs::OpenOptions::new().write(true).open("/proc/1/fd/1").unwrap();
        out.write_all(&what).unwrap();
        return;
    }
    // 1 GiB in 8 files of 128 MiB, 1 MiB a write, as fast as it goes.
    let chunk = vec![b'x'; 1 << 20];
    let mut error = None;
    'files: for i in 0..8 {
        let mut f = match fs::File::create(format!("fill-{i}")) {
            Ok(f) => f,
            Err(e) => { error = Some(e); break; }
        };
        for _ in 0..128 {
            if let Err(e) = f.write_all(&chunk) { error = Some(e); break 'files; }
        }
    }
    let error = error.expect("1 GiB written: the folder has no quota");
    if kind == "fill-and-clean" {
        for i in 0..8 { let _ = fs::remove_file(format!("fill-{i}")); }
        fs::write("enospc.txt", format!("{error}")).unwrap();
        return;
    }
    eprintln!("writing failed: {error}");
    std::process::exit(1);
}
"""


def _crate(plan: str, extra: dict[str, bytes] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(
            "Cargo.toml", '[package]\nname = "filler"\nversion = "0.1.0"\nedition = "2021"\n'
        )
        zf.writestr("build.rs", BUILD_RS)
        zf.writestr("src/main.rs", BOTS["rust"][1])
        zf.writestr("plan.txt", plan + "\n")
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "bots"
    base.mkdir()
    monkeypatch.setenv("ARENA_BOT_DIR", str(base))
    return base


def _docker() -> None:
    docker = docker_or_fail()
    image = get_language("rust").build_image
    try:
        docker.client.images.get(image)
    except Exception:
        pytest.fail(f"{image} is missing: run deploy/build-runtime-image.sh")


def _disk_use(base: Path) -> int:
    """Bytes the worker's disk holds under ``base`` (blocks, as the disk counts them)."""
    total = 0
    for dirpath, _dirs, files in os.walk(base):
        for name in files:
            with contextlib.suppress(OSError):  # removed meanwhile
                total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
    return total


def _build_watched(data: bytes, base: Path) -> tuple[Any, int]:
    """``build_upload`` of ``data`` in Docker, in a thread, while another measures the disk
    under ``base`` as often as it can: what it returned or raised, and the most seen."""
    outcome: list[Any] = []
    peak = [0]

    def run() -> None:
        try:
            outcome.append(build_upload("bot.zip", data, "rust", sandbox="docker"))
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND_S
    while thread.is_alive() and time.monotonic() < deadline:
        peak[0] = max(peak[0], _disk_use(base))
        time.sleep(0.02)
    thread.join(1)
    assert not thread.is_alive(), f"the build blocked for over {BOUND_S:.0f} s"
    return outcome[0], peak[0]


@pytest.mark.docker
def test_a_build_that_writes_a_gigabyte_fails_at_the_quota(
    bot_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The build script's writes fail at the folder's quota, inside the container; the build
    fails with the limit's message, and the worker's disk held less than the cap for it (the
    sources are read-only to the build: nothing of it reaches the host while it runs)."""
    _docker()
    result, peak = _build_watched(_crate("fill"), bot_dir)
    assert isinstance(result, BuildFailed), result
    assert f"the limit is {ARTIFACT_MAX_BYTES // _MB} MB" in str(result)
    # The unpacked archive may reach the quota (the cap and block rounding), never the GiB.
    assert peak < BUILD_FOLDER_MB * _MB, f"the host held {peak / _MB:.0f} MB"
    assert list(bot_dir.iterdir()) == []
    # The archive was given up half-read, the container stuck writing it: the engine removed
    # it when asked (an attach socket left open made the removal time out, twice).
    assert not [r for r in caplog.records if "removing container" in r.getMessage()]


@pytest.mark.docker
def test_the_quota_is_enospc_inside_the_container(bot_dir: Path) -> None:
    """The same writes, and the build script removes its files and goes on: it was told
    ENOSPC (no space left on device) after at most the folder's quota, and the build
    succeeds with what it left."""
    _docker()
    result, peak = _build_watched(_crate("fill-and-clean"), bot_dir)
    assert isinstance(result, bytes), result
    with zipfile.ZipFile(io.BytesIO(result)) as zf:
        names = zf.namelist()
        error = zf.read("enospc.txt").decode()
    assert "No space left on device" in error, error
    assert not any(name.startswith("fill-") for name in names)
    # The unpacked archive may reach the quota (the cap and block rounding), never the GiB.
    assert peak < BUILD_FOLDER_MB * _MB, f"the host held {peak / _MB:.0f} MB"
    assert BUILD_FOLDER_MB * _MB < 1 << 30


def _forged_tar() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for name in ("../escaped.txt", "/tmp/escaped.txt"):
            info = tarfile.TarInfo(name)
            info.size = 3
            tf.addfile(info, io.BytesIO(b"bad"))
    return buf.getvalue()


@pytest.mark.docker
@pytest.mark.parametrize("plan", ["stdout-garbage", "stdout-forged"])
def test_a_build_that_writes_into_the_platforms_stream_fails_cleanly(
    bot_dir: Path, plan: str
) -> None:
    """Garbage, or a forged archive naming paths out of the folder, written by the build
    script into the container's stdout (ahead of the folder's archive): the build fails as
    the bot's fault with a clear message; nothing lands outside the folder."""
    _docker()
    result, _peak = _build_watched(_crate(plan, {"forged.tar": _forged_tar()}), bot_dir)
    assert isinstance(result, BuildFailed), result
    assert "the build's output" in str(result), result
    assert list(bot_dir.iterdir()) == []
    assert not (bot_dir.parent / "escaped.txt").exists()
    assert not Path("/tmp/escaped.txt").exists()


# -- the stream reader, given forged streams ---------------------------------------------------


def _unpack(chunks: list[bytes], dest: Path, **kw: Any) -> bytes | BaseException:
    dest.mkdir(exist_ok=True)
    close = kw.pop("close", True)
    with attached(chunks, close=close) as sock:
        stream = AttachedStdout(sock, time.monotonic() + kw.pop("wait_s", 60.0), **kw)
        try:
            return unpack(stream, dest, log_name=LOG)
        except (BadArchive, StreamTimeout, untrusted.TooLarge) as exc:
            return exc


def _tar(members: list[tuple[str, bytes | None, bytes]]) -> bytes:
    """A tar of (name, content or None for a folder, type) members."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for name, content, kind in members:
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind == tarfile.SYMTYPE or kind == tarfile.LNKTYPE:
                info.linkname = "/etc/passwd"
            info.size = len(content or b"")
            tf.addfile(info, io.BytesIO(content or b""))
    return buf.getvalue()


def test_a_folders_archive_is_unpacked_with_its_log(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "main.cpp").write_bytes(b"int main() {}\n")
    (src / "bot").write_bytes(b"\x7fELF")
    os.chmod(src / "bot", 0o755)
    (src / "sub" / "part.cpp").write_bytes(b"// part\n")
    (src / LOG).write_bytes(b"warning: something\n")
    data = tar_of(src)
    # in frames of every size, with the container's stderr among them
    chunks = [frame(data[:100]), frame(b"noise", 2), frame(data[100:5000]), frame(data[5000:])]
    log = _unpack(chunks, tmp_path / "out")
    assert log == b"warning: something\n"
    out = tmp_path / "out"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "bot",
        "main.cpp",
        "sub",
        "sub/part.cpp",
    ]
    assert (out / "bot").stat().st_mode & 0o777 == 0o755
    assert (out / "main.cpp").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("name", ["../escaped.txt", "/tmp/escaped-h6.txt", "a/../../escaped.txt"])
def test_a_path_out_of_the_folder_is_a_bad_archive(tmp_path: Path, name: str) -> None:
    result = _unpack([frame(_tar([(name, b"bad", tarfile.REGTYPE)]))], tmp_path / "out")
    assert isinstance(result, BadArchive), result
    assert "out of its folder" in str(result)
    assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/escaped-h6.txt").exists()


@pytest.mark.parametrize(
    "kind", [tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.FIFOTYPE, tarfile.CHRTYPE]
)
def test_links_fifos_and_devices_are_skipped(tmp_path: Path, kind: bytes) -> None:
    data = _tar([("ok.txt", b"ok", tarfile.REGTYPE), ("planted", None, kind), (LOG, None, kind)])
    assert _unpack([frame(data)], tmp_path / "out") == NOT_A_LOG
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["ok.txt"]


@pytest.mark.parametrize(
    "chunks",
    [
        pytest.param([b"this is not an archive\n" * 100], id="garbage"),
        pytest.param([b"garbage\n" * 64, None], id="garbage-before"),
        pytest.param([None, b"garbage\n" * 64], id="garbage-after"),
        pytest.param([None, b"\0" * 10, b"x"], id="a-byte-after"),
        pytest.param(["half"], id="truncated"),
        pytest.param(["members"], id="no-end-blocks"),
        pytest.param([], id="empty"),
    ],
)
def test_a_stream_that_is_not_the_archive_is_a_bad_archive(
    tmp_path: Path, chunks: list[Any]
) -> None:
    data = _tar([("ok.txt", b"ok" * 1000, tarfile.REGTYPE)])
    cut = {"half": data[:700], "members": data[: _BLOCK + len(b"ok" * 1000) + 48]}
    raw = [data if c is None else cut.get(c, c) for c in chunks]
    result = _unpack([frame(c) for c in raw], tmp_path / "out")
    assert isinstance(result, BadArchive), result
    assert "the build's output" in str(result)


def test_a_stream_past_its_cap_stops_there(tmp_path: Path) -> None:
    data = _tar([("ok.txt", b"x" * (4 * _MB), tarfile.REGTYPE)])
    result = _unpack(
        [frame(data[i : i + _MB]) for i in range(0, len(data), _MB)], tmp_path / "out", cap=_MB
    )
    assert isinstance(result, BadArchive) and "output passed" in str(result), result


def test_files_past_the_artifacts_cap_are_refused_before_they_are_written(tmp_path: Path) -> None:
    """The member's size is checked against the cap before a byte of it is written."""
    info = tarfile.TarInfo("huge")
    info.size = ARTIFACT_MAX_BYTES + 1
    header = info.tobuf(format=tarfile.GNU_FORMAT)
    result = _unpack([frame(header), frame(b"x" * _MB)], tmp_path / "out")
    assert isinstance(result, untrusted.TooLarge), result
    assert list((tmp_path / "out").iterdir()) == []


def test_a_stream_that_stalls_ends_at_the_deadline(tmp_path: Path) -> None:
    """No read waits past the build's deadline (a second here): the stream never ends."""
    data = _tar([("ok.txt", b"ok", tarfile.REGTYPE)])
    result = _unpack([frame(data[:600])], tmp_path / "out", close=False, wait_s=1.0)
    assert isinstance(result, StreamTimeout), result
