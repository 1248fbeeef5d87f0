"""prepare_bot: the three upload shapes, and refusals with clear messages."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

import pytest

from sandbox.code import MAX_CODE_BYTES, BotCodeError, prepare_bot, release_bot


def _zip(path: Path, members: dict[str, bytes], *, symlink: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/passwd")
    return path


def test_single_file_becomes_main_py(tmp_path: Path) -> None:
    src = tmp_path / "mybot.py"
    src.write_text("print('hi')\n")
    code = prepare_bot(src)
    try:
        assert (code.root / "main.py").read_text() == "print('hi')\n"
        assert code.temporary and code.root != tmp_path
        # world-readable: bots run as an unprivileged user
        assert stat.S_IMODE((code.root / "main.py").stat().st_mode) == 0o644
    finally:
        release_bot(code)
    assert not code.root.exists()


def test_folder_copied_without_symlinks(tmp_path: Path) -> None:
    (tmp_path / "b" / "pkg").mkdir(parents=True)
    (tmp_path / "b" / "main.py").write_text("import pkg.util\n")
    (tmp_path / "b" / "pkg" / "util.py").write_text("X = 1\n")
    os.symlink("/etc/passwd", tmp_path / "b" / "leak.txt")
    code = prepare_bot(tmp_path / "b")
    try:
        assert (code.root / "pkg" / "util.py").read_text() == "X = 1\n"
        assert not (code.root / "leak.txt").exists()
    finally:
        release_bot(code)


def test_zip_with_top_folder(tmp_path: Path) -> None:
    z = _zip(tmp_path / "b.zip", {"mybot/main.py": b"pass\n", "mybot/lib.py": b"Y = 2\n"})
    code = prepare_bot(z)
    try:
        assert (code.root / "main.py").read_bytes() == b"pass\n"
        assert (code.root / "lib.py").exists()
    finally:
        release_bot(code)


@pytest.mark.parametrize(
    "members, symlink, message",
    [
        ({"../evil.py": b"x", "main.py": b""}, None, "outside its folder"),
        ({"/abs/main.py": b"x"}, None, "absolute path"),
        ({"a\\..\\main.py": b"x"}, None, "backslash"),
        ({"main.py": b""}, "link.txt", "symbolic link"),
        ({"other.py": b"x"}, None, "no main.py"),
    ],
)
def test_bad_zips_refused(tmp_path: Path, members, symlink, message) -> None:
    z = _zip(tmp_path / "b.zip", members, symlink=symlink)
    with pytest.raises(BotCodeError, match=message):
        prepare_bot(z)
    assert not list((tmp_path).glob("evil.py")) and not Path("/abs").exists()


def test_zip_bomb_capped_by_real_bytes(tmp_path: Path) -> None:
    z = tmp_path / "bomb.zip"
    with zipfile.ZipFile(z, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.py", b"pass\n")
        zf.writestr("big.bin", b"\0" * (MAX_CODE_BYTES + 1))
    assert z.stat().st_size < 1_000_000  # tiny on disk, huge unpacked
    with pytest.raises(BotCodeError, match="unpacks to"):
        prepare_bot(z)


def test_lying_zip_header_still_capped(tmp_path: Path, monkeypatch) -> None:
    # The header says 10 bytes, the data is 5000: never extract more than was declared.
    monkeypatch.setattr("sandbox.bundle.MAX_UNPACKED_BYTES", 1000)
    z = tmp_path / "lie.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("main.py", b"a" * 5000)
    data = bytearray(z.read_bytes())
    # patch the uncompressed size in the central directory to 10 bytes
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24 : cd + 28] = (10).to_bytes(4, "little")
    z.write_bytes(bytes(data))
    with pytest.raises(BotCodeError, match=r"'main\.py' cannot be read"):
        prepare_bot(z)


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("missing.py", None, "not found"),
        ("bot.txt", b"x", "a bot is a .py file"),
        ("bot.zip", b"not a zip", "not a valid zip"),
    ],
)
def test_bad_paths(tmp_path: Path, name, content, message) -> None:
    p = tmp_path / name
    if content is not None:
        p.write_bytes(content)
    with pytest.raises(BotCodeError, match=message):
        prepare_bot(p)


def test_folder_without_main(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "bot.py").write_text("")
    with pytest.raises(BotCodeError, match=r"no main\.py"):
        prepare_bot(tmp_path / "b")


def test_error_is_a_value_error() -> None:
    assert issubclass(BotCodeError, ValueError)


def test_reaper_removes_only_old_bot_copies(tmp_path: Path, monkeypatch) -> None:
    from sandbox.reap import remove_old_bot_dirs

    monkeypatch.setenv("ARENA_BOT_DIR", str(tmp_path / "bots"))
    src = tmp_path / "b.py"
    src.write_text("pass\n")
    old, new = prepare_bot(src), prepare_bot(src)
    os.utime(old.root, (1, 1))  # untouched since 1970
    assert remove_old_bot_dirs(3600) == 1
    assert not old.root.exists() and new.root.exists()
