"""A bot folder that holds its build: the mark a successful build leaves (the worker's check
stores the folder with it, as the version's build), so that every backend runs a stored build
as it is and never compiles during a match."""

from __future__ import annotations

import os
from pathlib import Path

from sandbox.base import BotCode
from sandbox.languages import BINARY, LANGUAGES, get_language

#: Written in the bot's folder after a successful build (its language's key).
BUILT = ".meeple-built"
#: Written in a stored version's folder: its language (the uploader's choice where the files
#: could be several languages' bots), read by ``sandbox.code.prepare_bot``.
LANGUAGE_MARK = ".meeple-language"


def marked_language(root: Path) -> str | None:
    """The language a stored version's folder names, if any."""
    try:
        key = (root / LANGUAGE_MARK).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return key if key in LANGUAGES else None


def mark_built(code: BotCode) -> None:
    """Note that ``code``'s folder holds its build."""
    (code.root / BUILT).write_text(code.language)


def is_built(code: BotCode) -> bool:
    """True when ``code`` is a compiled language's folder that holds its build."""
    return get_language(code.language).compiled and (code.root / BUILT).is_file()


def make_runnable(code: BotCode) -> None:
    """A built program executable (unpacking a stored build keeps no file modes)."""
    program = code.root / BINARY
    if get_language(code.language).compiled and program.is_file():
        os.chmod(program, 0o755)
