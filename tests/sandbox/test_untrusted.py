"""sandbox.untrusted, the one way the worker reads and writes a folder a build or a bot could
write: a link at the final or an intermediate component is refused, never followed; a FIFO
neither blocks nor is read; a device (a link to /dev/null, a device node made here as root)
is never opened; a huge file is read no further than the cap; the walk lists regular files
and folders only, within its caps. And the readers built on it (the build log, the artifact's
zipping, the marks, the host build's digest, cache and chmods, the process backend's start)
given a folder where each such thing sits at every path they read or write."""

from __future__ import annotations

import io
import os
import stat
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sandbox import untrusted
from sandbox.base import BotCode
from sandbox.build_archive import NOT_A_LOG, AttachedStdout, unpack
from sandbox.build_upload import zip_folder
from sandbox.built import BUILT, LANGUAGE_MARK, is_built, make_runnable, marks
from sandbox.docker_build import LOG
from sandbox.host_build import BuildFailed
from sandbox.languages import BINARY

from .tar_stream import attached, tar_frames

SECRET = b"host-canary-secret-77c2"
BOUND_S = 60.0
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="a device node needs root to make")


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    folder = tmp_path / "host"
    folder.mkdir()
    path = folder / "secret.txt"
    path.write_bytes(SECRET)
    os.chmod(path, 0o600)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "bot"
    (root / "src").mkdir(parents=True)
    (root / "main.cpp").write_bytes(b"int main() {}\n")
    (root / "src" / "part.cpp").write_bytes(b"// part\n")
    return root


def _untouched(canary: Path) -> None:
    assert canary.read_bytes() == SECRET
    assert stat.S_IMODE(canary.stat().st_mode) == 0o600


def _bounded(fn: Callable[[], Any]) -> Any:
    """``fn()``'s result (or what it raised), failing the test if it is still running after
    ``BOUND_S``: it blocked."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as exc:  # handed to the test
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND_S)
    assert not thread.is_alive(), f"blocked for over {BOUND_S:.0f} s"
    return out[0]


# -- the helper ------------------------------------------------------------------------------


def test_a_link_at_the_final_component_is_refused(folder: Path, canary: Path) -> None:
    (folder / "log").symlink_to(canary)
    with pytest.raises(untrusted.NotAFile):
        untrusted.read_head(folder, "log", 1000)
    assert not untrusted.is_file(folder, "log")
    with pytest.raises(untrusted.NotAFile):
        untrusted.chmod(folder, "log", 0o777)
    _untouched(canary)


def test_a_link_at_an_intermediate_component_is_refused(folder: Path, canary: Path) -> None:
    (folder / "sub").symlink_to(canary.parent)
    with pytest.raises(untrusted.NotAFile):
        untrusted.read_head(folder, "sub/secret.txt", 1000)
    with pytest.raises(untrusted.NotAFile):
        untrusted.write_file(folder, "sub/secret.txt", iter([b"x"]), 0o644)
    assert untrusted.lstat(folder, "sub/secret.txt") is None
    _untouched(canary)


def test_a_path_out_of_the_folder_is_refused(folder: Path, canary: Path) -> None:
    for rel in ("../host/secret.txt", str(canary), ""):
        with pytest.raises(untrusted.NotAFile):
            untrusted.read_head(folder, rel, 1000)


def test_a_fifo_neither_blocks_nor_is_read(folder: Path) -> None:
    os.mkfifo(folder / "log")
    caught = _bounded(lambda: untrusted.read_head(folder, "log", 1000))
    assert isinstance(caught, untrusted.NotAFile)


def test_a_link_to_a_device_is_never_opened(folder: Path) -> None:
    (folder / "null").symlink_to("/dev/null")
    (folder / "zero").symlink_to("/dev/zero")
    for name in ("null", "zero"):
        caught = _bounded(lambda name=name: untrusted.read_head(folder, name, 10))
        assert isinstance(caught, untrusted.NotAFile)


@as_root
def test_a_device_node_is_never_opened(folder: Path) -> None:
    os.mknod(folder / "zero", 0o666 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    caught = _bounded(lambda: untrusted.read_head(folder, "zero", 10))
    assert isinstance(caught, untrusted.NotAFile)
    with pytest.raises(untrusted.NotAFile):
        untrusted.chmod(folder, "zero", 0o600)


def test_a_huge_file_is_read_to_the_cap_only(folder: Path) -> None:
    with open(folder / "huge", "wb") as fh:
        fh.truncate(1 << 30)  # sparse: a GiB that costs no disk
    assert len(untrusted.read_head(folder, "huge", 5000)) == 5000
    with pytest.raises(untrusted.TooLarge) as caught:
        untrusted.read_file(folder, "huge", 4096)
    assert caught.value.limit == 4096
    with pytest.raises(untrusted.TooLarge):
        b"".join(untrusted.file_chunks(folder, "huge", 1 << 20))


def test_the_walk_lists_regular_files_and_folders_only(folder: Path, canary: Path) -> None:
    (folder / "link").symlink_to(canary)
    (folder / "dirlink").symlink_to(canary.parent)
    os.mkfifo(folder / "fifo")
    entries = list(untrusted.walk(folder, max_bytes=1 << 20, max_files=100))
    assert [(e.rel, e.is_dir) for e in entries] == [
        ("main.cpp", False),
        ("src", True),
        ("src/part.cpp", False),
    ]


def test_the_walk_stops_at_its_caps(folder: Path) -> None:
    with open(folder / "huge", "wb") as fh:
        fh.truncate(1 << 30)
    with pytest.raises(untrusted.TooLarge):
        list(untrusted.walk(folder, max_bytes=1 << 20, max_files=100))
    with pytest.raises(untrusted.TooLarge):
        list(untrusted.walk(folder, max_bytes=1 << 31, max_files=2))
    deep = folder / "d"
    for _ in range(untrusted.MAX_DEPTH + 2):
        deep = deep / "d"
    deep.mkdir(parents=True)
    with pytest.raises(untrusted.TooLarge):
        list(untrusted.walk(folder, max_bytes=1 << 31, max_files=1000))


def test_a_write_replaces_a_planted_link_never_through_it(folder: Path, canary: Path) -> None:
    (folder / BUILT).symlink_to(canary)
    untrusted.write_file(folder, BUILT, iter([b"cpp"]), 0o644)
    assert untrusted.read_file(folder, BUILT, 10) == b"cpp"
    _untouched(canary)


# -- the readers, with hostile things at every path they read or write --------------------

PLANTS = ["link", "dirlink", "fifo", "devlink", "device", "huge"]


def _plant(folder: Path, rel: str, kind: str, canary: Path) -> None:
    path = folder / rel
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "link":
        path.symlink_to(canary)
    elif kind == "dirlink":
        path.symlink_to(canary.parent)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "devlink":
        path.symlink_to("/dev/zero")
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("a device node needs root to make")
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
    else:
        with open(path, "wb") as fh:
            fh.truncate(200 << 20)  # sparse, over the artifact's cap


@pytest.mark.parametrize("kind", PLANTS)
def test_the_build_log_reader(folder: Path, canary: Path, kind: str, tmp_path: Path) -> None:
    """The Docker build's log is a member of its folder's archive (as the container's tar
    writes it): read no further than its cap, never followed, never written out."""
    _plant(folder, LOG, kind, canary)
    out = tmp_path / "out"
    out.mkdir()

    def read() -> bytes:
        with attached(tar_frames(folder)) as sock:
            return unpack(AttachedStdout(sock, time.monotonic() + BOUND_S), out, log_name=LOG)

    data = _bounded(read)
    if kind == "huge":  # it is in the folder: it counts against the cap
        assert isinstance(data, untrusted.TooLarge), data
        return
    assert isinstance(data, bytes) and SECRET not in data
    assert data == NOT_A_LOG
    assert untrusted.lstat(out, LOG) is None  # never written out, whatever it was
    _untouched(canary)


@pytest.mark.parametrize("kind", PLANTS)
@pytest.mark.parametrize("rel", [BUILT, LANGUAGE_MARK, LOG, BINARY, "src/part.cpp", "extra"])
def test_the_artifact_zipping(folder: Path, canary: Path, kind: str, rel: str) -> None:
    _plant(folder, rel, kind, canary)
    out = io.BytesIO()
    caught = _bounded(lambda: zip_folder(folder, out, extra=marks("cpp", built=True)))
    if kind == "huge":  # wherever it is (a platform's name too: it is in the folder)
        assert isinstance(caught, BuildFailed) and "the limit is 64 MB" in str(caught)
        return
    assert caught is None, caught
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as zf:
        files = {i.filename: zf.read(i) for i in zf.infolist()}
    assert SECRET not in out.getvalue()
    assert files[BUILT] == b"cpp" and files[LANGUAGE_MARK] == b"cpp"
    assert rel not in files or rel in (BUILT, LANGUAGE_MARK)
    _untouched(canary)


@pytest.mark.parametrize("kind", PLANTS)
def test_marks_in_a_folder_are_never_read(folder: Path, canary: Path, kind: str) -> None:
    """Whatever a folder holds named like a mark, the folder is not built: only whoever
    prepares the code says so (the worker, from the match spec's verified artifact hash)."""
    canary.write_bytes(b"cpp")  # a host file that would read as a valid mark
    os.chmod(canary, 0o600)
    _plant(folder, BUILT, kind, canary)
    _plant(folder, LANGUAGE_MARK, kind, canary)
    code = BotCode(root=folder, entry="main.cpp", language="cpp")
    assert _bounded(lambda: is_built(code)) is False
    assert canary.read_bytes() == b"cpp"


@pytest.mark.parametrize("kind", PLANTS)
def test_making_the_program_runnable(folder: Path, canary: Path, kind: str) -> None:
    _plant(folder, BINARY, kind, canary)
    code = BotCode(root=folder, entry="main.cpp", language="cpp")
    assert _bounded(lambda: make_runnable(code)) is None
    _untouched(canary)


@pytest.mark.parametrize("kind", PLANTS)
def test_the_host_builds_digest_cache_and_chmods(
    folder: Path, canary: Path, kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sandbox import host_build
    from sandbox.languages import get_language

    monkeypatch.setenv("ARENA_BOT_DIR", str(tmp_path / "bots"))
    _plant(folder, "src/planted", kind, canary)
    lang = get_language("cpp")
    digest = _bounded(lambda: host_build._digest(folder, lang, {}))
    if kind == "huge":
        assert isinstance(digest, BuildFailed)
        return
    assert isinstance(digest, str)
    cached = host_build._cache_base() / digest
    assert _bounded(lambda: host_build._store(folder, cached)) is None
    assert sorted(p.name for p in cached.rglob("*")) == ["main.cpp", "part.cpp", "src"]
    assert _bounded(lambda: host_build._make_runnable(folder)) is None
    _untouched(canary)


@pytest.mark.parametrize("kind", PLANTS)
def test_the_process_backend_starting_a_stored_build(folder: Path, canary: Path, kind: str) -> None:
    """A stored build's folder (marked built) whose program is a planted thing: the process
    backend's start makes nothing of the host executable, reads nothing, does not block."""
    import shutil

    from sandbox.process import ProcessSandbox

    if shutil.which("g++") is None:
        pytest.skip("this machine cannot run C++ bots")
    _plant(folder, BINARY, kind, canary)
    code = BotCode(root=folder, entry="main.cpp", language="cpp", built=True)
    assert _bounded(lambda: ProcessSandbox().prepare(code)) is None
    _untouched(canary)
