"""A build's artifact is streamed, never held whole in the worker's memory (issue 28, item 2): a
Cargo build that leaves 40 MB of incompressible data is zipped file by file into the caller's
file (``build_upload_to``), its peak of Python memory a small fraction of the artifact's size
(the artifact used to be read back as one ``bytes`` and stored from it). The host build
(``sandbox="process"``) is used: the zipping is the same for Docker's."""

from __future__ import annotations

import io
import shutil
import tempfile
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from sandbox.build_upload import build_upload_to
from sandbox.languages import get_language
from tests.language_bots import BOTS

MB = 1024 * 1024
#: What the build leaves: incompressible, so the zip is as large.
LEFT_MB = 40

BUILD_RS = b"""
use std::fs::File;
use std::io::Write;

// 40 MB of xorshift bytes: nothing a zip can shrink.
fn main() {
    let mut out = File::create("noise.bin").unwrap();
    let mut x: u64 = 0x9E3779B97F4A7C15;
    let mut buf = vec![0u8; 1 << 20];
    for _ in 0..40 {
        for b in buf.iter_mut() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            *b = x as u8;
        }
        out.write_all(&buf).unwrap();
    }
}
"""


def _crate() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(
            "Cargo.toml", '[package]\nname = "noisy"\nversion = "0.1.0"\nedition = "2021"\n'
        )
        zf.writestr("build.rs", BUILD_RS)
        zf.writestr("src/main.rs", BOTS["rust"][1])
    return buf.getvalue()


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "bots"
    base.mkdir()
    monkeypatch.setenv("ARENA_BOT_DIR", str(base))
    return base


def test_a_large_artifact_is_written_to_the_file_in_chunks(bot_dir: Path) -> None:
    if any(shutil.which(t) is None for t in get_language("rust").host_tools):
        pytest.skip("this machine has no Rust toolchain")
    data = _crate()
    with tempfile.TemporaryFile() as out:
        tracemalloc.start()
        try:
            built = build_upload_to("bot.zip", data, "rust", out, sandbox="process")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert built
        size = out.tell()
        assert size > LEFT_MB * MB  # the noise went into the artifact, unshrunk
        assert peak < 12 * MB, (
            f"peak {peak / MB:.1f} MB of Python memory for a {size / MB:.0f} MB zip"
        )
        out.seek(0)
        with zipfile.ZipFile(out) as zf:
            assert zf.getinfo("noise.bin").file_size == LEFT_MB * MB
