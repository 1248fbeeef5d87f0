"""Turning an uploaded bot (a source file such as ``main.py`` or ``main.cpp``, a folder or a
``.zip``) into a :class:`BotCode`: a fresh, world-readable copy in its own directory, with its
language recognised from its files (``sandbox.languages.recognise``).

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
from sandbox.built import forget
from sandbox.bundle import MAX_FILES, BundleError, extract_zip
from sandbox.bundle import MAX_UNPACKED_BYTES as MAX_CODE_BYTES
from sandbox.languages import LANGUAGES, Language, get_language, recognise

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


def prepare_bot(
    path: str | os.PathLike[str],
    *,
    labels: dict[str, str] | None = None,
    language: str | None = None,
    built: bool = False,
) -> BotCode:
    """Copy the bot at ``path`` (a source file, a folder or a zip) into a fresh directory and
    recognise its language, or take ``language`` when given (the match spec's, an ambiguous
    bundle's). ``built``: the caller knows it for a stored build of a compiled language (the
    match spec's verified artifact), so it is run as it is; nothing in the files is believed.
    Raises :class:`BotCodeError` with a clear message on bad input."""
    src = Path(path)
    if not src.exists():
        raise BotCodeError(f"bot not found: {src}")
    dest = Path(tempfile.mkdtemp(prefix="bot-", dir=bot_dir_base()))
    try:
        if src.is_dir():
            _copy_folder(src, dest)
            root = _find_root(dest, src)
        elif src.suffix == ".zip":
            # The upload check's own unpacking (sandbox.bundle): what it accepts runs here.
            root = extract_zip(src, dest, entries=BOT_ENTRIES)
        else:
            lang = _single_file_language(src)
            _check_size(src.stat().st_size, 1)
            shutil.copyfile(src, dest / lang.source)
            root = dest
        lang = _language_of(root, src, language)
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
    return BotCode(
        root=root,
        entry=lang.source,
        labels=dict(labels or {}),
        temporary=True,
        language=lang.key,
        built=built and lang.compiled,
    )


#: What marks a bot's top in a zip: every language's entry source and build files (the
#: command line's check of a zip passes it too).
BOT_ENTRIES = tuple(
    dict.fromkeys(f for lang in LANGUAGES.values() for f in (lang.source, *lang.markers))
)


def _sources_named() -> str:
    return ", ".join(lang.source for lang in LANGUAGES.values() if lang.source != "main.py")


def _no_bot(name: str) -> BotCodeError:
    return BotCodeError(f"{name}: no main.py (nor {_sources_named()}) at the top of the bot")


def _single_file_language(src: Path) -> Language:
    """A single file is its language's entry: ``main.cpp``, ``bot.py`` (run as ``main.py``),
    any ``.rs``... by its suffix, as the language's source file."""
    for lang in LANGUAGES.values():
        if src.suffix.lower() == Path(lang.source).suffix:
            return lang
    raise BotCodeError(
        f"{src.name}: a bot is a .py file or another language's source ({_sources_named()}), "
        "a folder or a .zip"
    )


def _language_of(root: Path, src: Path, explicit: str | None) -> Language:
    files = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    if explicit:
        return get_language(explicit)
    found = recognise(files)
    if len(found) == 1:
        return found[0]
    if not found:
        raise _no_bot(src.name)
    raise BotCodeError(
        f"{src.name}: could be {' or '.join(lang.name for lang in found)} (it holds "
        f"{' and '.join(lang.source for lang in found)} at its top); keep one language's "
        "entry there"
    )


def release_bot(code: BotCode) -> None:
    """Delete a prepared bot's copy (only copies made by :func:`prepare_bot`)."""
    if not code.temporary:
        return
    forget(code.root)
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
    if recognise([p.name for p in dest.iterdir() if p.is_file()]):
        return dest
    # A zip of a folder holds one top-level folder: accept a bot inside it.
    entries = [p for p in dest.iterdir()]
    inner = entries[0] if len(entries) == 1 and entries[0].is_dir() else None
    if inner is not None and recognise([p.name for p in inner.iterdir() if p.is_file()]):
        return inner
    raise _no_bot(src.name)


def _make_readable(dest: Path) -> None:
    for dirpath, _dirnames, filenames in os.walk(dest):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
