"""Whether a bot folder holds its build, and the marks a stored build's zip carries.

A folder built in place is remembered by this process (:func:`mark_built`); a stored build
(the worker's check zips the built folder: ``sandbox.build_upload``) is said to be one by
whoever prepares it (``prepare_bot(..., built=True)``: the worker, from the match spec's
artifact hash, which it verified). Nothing is read back from the folder: a build may leave
anything there (a link named like a mark, to a host file: ``sandbox.untrusted``), and a build
cannot say it is built or another language. So every backend runs a stored build as it is and
never compiles during a match.

The zip still carries the platform's marks (:func:`marks`, written from memory, in place of
any file of the same name the build left) for workers from before the match spec named the
language and the build; this code never reads them.
"""

from __future__ import annotations

from pathlib import Path

from sandbox import untrusted
from sandbox.base import BotCode
from sandbox.languages import BINARY, get_language

#: In a stored build's zip: the language whose build the folder holds (for old workers).
BUILT = ".meeple-built"
#: In a stored version's zip: its language, the uploader's choice where the files could be
#: several languages' bots (for old workers: the match spec names it now).
LANGUAGE_MARK = ".meeple-language"
MARKS = (BUILT, LANGUAGE_MARK)
#: What a build may leave in its folder (its sources included), unpacked: past it the build
#: fails, as the bot's fault, and nothing is stored. The stored zip is smaller still.
ARTIFACT_MAX_BYTES = 64 * 1024 * 1024
#: Files and folders a build may leave.
ARTIFACT_MAX_FILES = 10_000
_MB = 1024 * 1024
#: The Docker build's writable folder is a tmpfs of this size, a real quota (a write past it
#: fails with ENOSPC in the container): the cap, plus room for the file system's rounding of
#: small files to blocks and for a build just past the cap to be told the cap.
BUILD_FOLDER_MB = ARTIFACT_MAX_BYTES // _MB + 16
#: Its inodes: the files' cap and a few more (each file or folder takes one).
BUILD_FOLDER_INODES = ARTIFACT_MAX_FILES + 64

#: Folders this process built in place (``arena play`` builds a bot once for all its seats).
_built_here: set[str] = set()


def mark_built(code: BotCode) -> None:
    """Note that ``code``'s folder holds its build (in this process: nothing is written)."""
    _built_here.add(str(code.root))


def forget(root: Path) -> None:
    """The folder ``root`` is gone (``sandbox.code.release_bot``)."""
    _built_here.discard(str(root))


def is_built(code: BotCode) -> bool:
    """True when ``code`` is a compiled language's folder that holds its build: built here, or
    a stored build (``code.built``)."""
    if not get_language(code.language).compiled:
        return False
    return code.built or str(code.root) in _built_here


def output_too_large(exc: untrusted.TooLarge) -> str:
    """What the owner of a build that left too much reads."""
    if exc.limit == ARTIFACT_MAX_BYTES:
        return (
            f"the build left over {exc.size / _MB:.0f} MB; the limit is "
            f"{ARTIFACT_MAX_BYTES // _MB} MB (everything in the bot's folder after the build)"
        )
    if exc.limit == ARTIFACT_MAX_FILES:
        return f"the build left over {exc.limit} files and folders; the limit is {exc.limit}"
    return f"the build left folders nested over {exc.limit} deep; the limit is {exc.limit}"


def folder_full() -> str:
    """What the owner of a build that filled its folder's quota reads."""
    return (
        f"the build filled the bot's folder ({BUILD_FOLDER_MB} MB): the limit is "
        f"{ARTIFACT_MAX_BYTES // _MB} MB (everything in the bot's folder after the build)"
    )


def output_over_cap(root: Path) -> str | None:
    """None when what the folder holds is within the caps, else why not (for its owner). A
    walk stops at the cap: a folder of millions of files is not listed whole."""
    try:
        for _entry in untrusted.walk(
            root, max_bytes=ARTIFACT_MAX_BYTES, max_files=ARTIFACT_MAX_FILES
        ):
            pass
    except untrusted.TooLarge as exc:
        return output_too_large(exc)
    return None


def marks(language: str, *, built: bool) -> dict[str, bytes]:
    """The marks a stored version's zip carries (written by the platform, from memory)."""
    found = {LANGUAGE_MARK: language.encode("ascii")}
    if built:
        found[BUILT] = language.encode("ascii")
    return found


def make_runnable(code: BotCode) -> None:
    """A built program executable (unpacking a stored build keeps no file modes); a link or
    anything but a regular file named like the program is left alone."""
    if get_language(code.language).compiled and untrusted.is_file(code.root, BINARY):
        untrusted.chmod(code.root, BINARY, 0o755)
