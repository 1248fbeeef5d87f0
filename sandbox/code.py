"""Turning an uploaded bot (a ``.py`` file, a folder or a ``.zip`` with ``main.py``) into a
:class:`BotCode`: a fresh, world-readable copy in its own directory.

We always copy: the sandbox then runs a snapshot the uploader cannot change mid-match, and the
copy is readable by the unprivileged user bots run as (a Docker container's ``nobody`` or the
process backend's pool user). Call :func:`release_bot` when the match is over.
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
import tempfile
from pathlib import Path

from sandbox.base import BotCode
from sandbox.bundle import ENTRY, MAX_FILES, BundleError, extract_zip
from sandbox.bundle import MAX_UNPACKED_BYTES as MAX_CODE_BYTES

#: The uploaded bot cannot be used; ``str()`` says why for the uploader, ``.public`` for others.
BotCodeError = BundleError

log = logging.getLogger(__name__)
#: What others see when this machine, not the bot, failed to lay out a bot's files.
UNPACK_FAILED = "the bot's code could not be unpacked on the worker"


def bot_dir_base() -> Path:
    """Where prepared bots live. ``ARENA_BOT_DIR`` overrides it: with Docker through a mounted
    socket, it must be a path the engine's host sees at the same place."""
    base = os.environ.get("ARENA_BOT_DIR") or os.path.join(tempfile.gettempdir(), "meeple-bots")
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o755)  # nosec: bots' own users must traverse it; contents are per-bot dirs
    return path


def prepare_bot(path: str | os.PathLike[str], *, labels: dict[str, str] | None = None) -> BotCode:
    """Copy the bot at ``path`` into a fresh directory holding ``main.py``. Raises
    :class:`BotCodeError` with a clear message on bad input."""
    src = Path(path)
    if not src.exists():
        raise BotCodeError(f"bot not found: {src}")
    dest = Path(tempfile.mkdtemp(prefix="bot-", dir=bot_dir_base()))
    try:
        if src.is_dir():
            _copy_folder(src, dest)
            root = _find_root(dest, src)
        elif src.suffix == ".py":
            _check_size(src.stat().st_size, 1)
            shutil.copyfile(src, dest / ENTRY)
            root = dest
        elif src.suffix == ".zip":
            # The upload check's own unpacking (sandbox.bundle): what it accepts runs here.
            root = extract_zip(src, dest)
        else:
            raise BotCodeError(
                f"{src.name}: a bot is a .py file, a folder with {ENTRY}, or a .zip with {ENTRY}"
            )
        _make_readable(dest)
    except OSError as exc:
        # The host's failure (a full disk, permissions): its text names this machine's paths,
        # so it goes to the log and the match's public error says only what happened.
        shutil.rmtree(dest, ignore_errors=True)
        log.warning("could not unpack the bot %s", src.name, exc_info=True)
        raise BotCodeError(f"{src.name}: {exc}", public=UNPACK_FAILED) from exc
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return BotCode(root=root, entry=ENTRY, labels=dict(labels or {}), temporary=True)


def release_bot(code: BotCode) -> None:
    """Delete a prepared bot's copy (only copies made by :func:`prepare_bot`)."""
    if not code.temporary:
        return
    base = bot_dir_base().resolve()
    top = code.root.resolve()
    while top.parent != base and top.parent != top:
        top = top.parent
    if top.parent == base:
        shutil.rmtree(top, ignore_errors=True)


def _check_size(total: int, count: int) -> None:
    if total > MAX_CODE_BYTES:
        raise BotCodeError(f"bot too large: over {MAX_CODE_BYTES // (1024 * 1024)} MB unpacked")
    if count > MAX_FILES:
        raise BotCodeError(f"bot has too many files: over {MAX_FILES}")


def _copy_folder(src: Path, dest: Path) -> None:
    # Regular files only: symlinks and devices are skipped, so a link cannot pull in host files.
    total = count = 0
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel = Path(dirpath).relative_to(src)
        dirnames[:] = [d for d in dirnames if d not in {"__pycache__", ".git"}]
        for name in filenames:
            f = Path(dirpath) / name
            st = f.lstat()
            if not stat.S_ISREG(st.st_mode):
                continue
            total += st.st_size
            count += 1
            _check_size(total, count)
            (dest / rel).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dest / rel / name)


def _find_root(dest: Path, src: Path) -> Path:
    if (dest / ENTRY).is_file():
        return dest
    # A zip of a folder holds one top-level folder: accept main.py inside it.
    entries = [p for p in dest.iterdir()]
    if len(entries) == 1 and entries[0].is_dir() and (entries[0] / ENTRY).is_file():
        return entries[0]
    raise BotCodeError(f"{src.name}: no {ENTRY} at the top of the bot")


def _make_readable(dest: Path) -> None:
    for dirpath, _dirnames, filenames in os.walk(dest):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
