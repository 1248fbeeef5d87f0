"""One validator for every door (sandbox.bundle): whatever the upload check refuses, the
sandbox's unpacking and the command line refuse too, with the same message; whatever it
accepts, the sandbox prepares and runs from main.py. A match's public error names no file of a
private zip."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.botspec import BotSpecError, parse_bot_spec
from sandbox.bundle import PUBLIC_MESSAGE, Bundle, BundleError, check_bundle, extract_zip
from sandbox.code import prepare_bot, release_bot
from sandbox.zipwalk import LZMA_MAX_DICT
from tests.security.badfiles import (
    ACCEPTED,
    BOMB_METHODS,
    GOOD_MAIN,
    REFUSED,
    UNWRITABLE,
    bomb,
    zip_of,
)

# Refused for their structure: the sandbox's unpacking refuses them too (a main.py that does
# not compile is the worker's compile check's business: tests/security/test_compile_check.py).
ZIP_REFUSED = [r for r in REFUSED if r[1].endswith(".zip")]


@pytest.mark.parametrize(("cid", "name", "data", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_upload_check_refuses_with_its_message(cid: str, name: str, data: bytes, message: str):
    with pytest.raises(BundleError, match=None) as caught:
        check_bundle(name, data)
    assert message in str(caught.value)
    assert caught.value.public and "main.py" not in caught.value.public


@pytest.mark.parametrize(
    ("cid", "name", "data", "message"), ZIP_REFUSED, ids=[r[0] for r in ZIP_REFUSED]
)
def test_sandbox_and_cli_refuse_what_the_upload_check_refuses(
    tmp_path: Path, cid: str, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / "bot.zip"
    path.write_bytes(data)
    with pytest.raises(BundleError) as upload:
        check_bundle(name, data)
    with pytest.raises(BundleError) as sandbox:
        prepare_bot(path)
    assert str(sandbox.value) == str(upload.value).replace("The file", "bot.zip")
    with pytest.raises(BotSpecError, match="bot"):
        parse_bot_spec(str(path), "trnd")
    assert not (tmp_path / "etc").exists() and not Path("/etc/x.py").exists()


@pytest.mark.parametrize(("cid", "name", "data"), ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_what_is_accepted_is_prepared_and_runs_from_main(
    tmp_path: Path, cid: str, name: str, data: bytes
) -> None:
    bundle = check_bundle(name, data)
    assert isinstance(bundle, Bundle) and "main.py" in bundle.files
    stored = tmp_path / bundle.stored_name  # what bots.services stores: never the client's name
    stored.write_bytes(data)
    parse_bot_spec(str(stored), "trnd")
    code = prepare_bot(stored)
    try:
        assert (code.root / "main.py").read_bytes() == GOOD_MAIN
        found = sorted(str(p.relative_to(code.root)) for p in code.root.rglob("*") if p.is_file())
        assert found == sorted(bundle.files)
    finally:
        release_bot(code)


def test_match_error_is_public_text_without_private_names(tmp_path: Path) -> None:
    """A stored zip that went bad after its upload: the uploader's message names the member,
    the match's public error does not."""
    from arena.referee import run_match

    path = tmp_path / "bot.zip"
    path.write_bytes(zip_of({"main.py": GOOD_MAIN, "secret-strategy/../../x.py": b""}))
    with pytest.raises(ValueError) as caught:
        run_match(
            "trnd", [str(path), "builtin:random", "builtin:greedy"], seed=1, sandbox="process"
        )
    assert "secret-strategy" in str(caught.value)
    assert "secret-strategy" not in caught.value.public  # type: ignore[attr-defined]
    public = f"match refused: {getattr(caught.value, 'public', caught.value)}"  # as arena.tasks
    assert "secret" not in public and "x.py" not in public


def _peak(fn: Callable[[], Any]) -> int:
    """Peak bytes the Python heap grew by while ``fn`` ran (its exception is swallowed)."""
    tracemalloc.start()
    try:
        fn()
    except BundleError:
        pass
    finally:
        _now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


@pytest.mark.parametrize("method", BOMB_METHODS)
def test_bombs_are_refused_without_inflating(tmp_path: Path, method: str) -> None:
    """A zip of a few hundred bytes (bzip2) to 64 KB (deflate) whose member inflates to 64 MiB
    while its headers say 10 bytes: refused before more than a chunk is inflated, by the
    upload check and by the worker's unpacking alike (zipfile inflates a bzip2 or lzma chunk
    whole: the check grew by the full 64 MiB)."""
    data = bomb(method)
    assert _peak(lambda: check_bundle("bot.zip", data)) < 2 * 1024 * 1024  # was 141/205 MiB
    with pytest.raises(BundleError, match="more than the 10 bytes its header says"):
        check_bundle("bot.zip", data)
    path = tmp_path / "bot.zip"
    path.write_bytes(data)
    dest = tmp_path / "out"
    dest.mkdir()
    assert _peak(lambda: extract_zip(path, dest)) < 2 * 1024 * 1024
    with pytest.raises(BundleError, match="more than the 10 bytes"):
        extract_zip(path, dest)


@pytest.mark.parametrize("method", BOMB_METHODS)
def test_every_method_is_read_in_bounded_steps(method: str) -> None:
    """An honest 16 MiB member (its CRC is wrong, so it is refused at its end): read whole,
    yet the check never holds more than a chunk of it (and lzma's dictionary, allocated
    whole, is no larger than the file and LZMA_MAX_DICT)."""
    size = 16 * 1024 * 1024
    data = bomb(method, unpacked=size, claimed=size)
    with pytest.raises(BundleError, match="bad CRC-32"):
        check_bundle("bot.zip", data)
    dictionary = LZMA_MAX_DICT if method == "lzma" else 0
    assert _peak(lambda: check_bundle("bot.zip", data)) < dictionary + 2 * 1024 * 1024


@pytest.mark.parametrize(
    ("cid", "name", "data", "message"), UNWRITABLE, ids=[r[0] for r in UNWRITABLE]
)
def test_what_the_check_refuses_the_worker_never_half_writes(
    tmp_path: Path, cid: str, name: str, data: bytes, message: str
) -> None:
    """Names a file system cannot hold, and a file that is also a folder (in either order,
    in any case): the upload check refuses them, and the worker's unpacking refuses them
    with the same message before it writes a byte (it raised OSError halfway before)."""
    with pytest.raises(BundleError, match=message):
        check_bundle(name, data)
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(BundleError, match=message) as caught:
        extract_zip(io.BytesIO(data), dest)
    assert list(dest.iterdir()) == []
    assert caught.value.public == PUBLIC_MESSAGE
