"""Whether main.py compiles is checked in a child process with memory and CPU limits (on a
worker, sandbox.compile_check), never by the upload check that a web request runs: the same
messages as before, and no file can cost the checking process more than the limits."""

from __future__ import annotations

import resource

import pytest

from sandbox.bundle import BundleError, check_bundle, check_python
from sandbox.compile_check import check_code, compile_limited
from tests.security.badfiles import GOOD_MAIN, NOT_COMPILING, zip_of


def _assignments(mib: float) -> bytes:
    """Simple lines, as many as make ``mib`` MiB: cheap to check, costly to compile
    (about 140 MB and half a second of CPU per MiB)."""
    lines = int(mib * 1024 * 1024 / 13)
    return "".join(f"x{i % 1000} = {i}\n" for i in range(lines)).encode()


@pytest.mark.parametrize(
    ("cid", "name", "data", "message"), NOT_COMPILING, ids=[r[0] for r in NOT_COMPILING]
)
def test_code_that_does_not_compile(cid: str, name: str, data: bytes, message: str) -> None:
    """The upload check takes it (it does not compile); the worker's check refuses it with
    the message the uploader saw before; the command line's own check says the same."""
    check_bundle(name, data)
    with pytest.raises(BundleError) as worker:
        check_code(name, data)
    assert message in str(worker.value)
    if name.endswith(".py"):
        with pytest.raises(BundleError) as local:
            check_python("main.py", data)
        assert str(local.value) == str(worker.value)


def test_code_that_compiles_passes() -> None:
    assert check_code("main.py", GOOD_MAIN).files == ("main.py",)
    bundle = check_code("bot.zip", zip_of({"bot/main.py": GOOD_MAIN, "bot/lib.py": b"X = 1\n"}))
    assert bundle.root == "bot" and bundle.files == ("lib.py", "main.py")


def test_memory_is_the_childs_and_limited() -> None:
    """2.5 MiB of assignments needs some 350 MB to compile: past a 200 MiB limit it is refused
    with a clear message, and the checking process itself does not grow."""
    source = _assignments(2.5)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(BundleError, match=r"main\.py (needs more than 200 MiB|is too deeply)"):
        compile_limited(source, memory_bytes=200 * 1024 * 1024)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 50


def test_cpu_time_is_limited() -> None:
    """About 3 s of CPU to compile, against a 1 s limit: refused, said so."""
    with pytest.raises(BundleError, match=r"takes more than 1 s to compile"):
        compile_limited(_assignments(6), cpu_seconds=1, memory_bytes=4 * 1024**3)


def test_the_limits_leave_room_for_real_bots() -> None:
    """Half a MiB of data tables compiles within the default limits."""
    compile_limited(_assignments(0.5))
