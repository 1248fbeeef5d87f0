"""What makes two seats "the same bot version" for the warm pool (``sandbox.pool``): a reset
container is handed only to a seat with the same key, never to another version's bot.

The key is a SHA-256 over the bot's prepared code (every file's and folder's path, type and
mode, and every file's bytes, in sorted order), its entry and language, its ``Limits``, and the
seat's ``owner`` label when the caller gives one (so that the same bytes uploaded by two users
can be kept apart). Hashing reads the code once per seat start: about 1 ms for 1 MB.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import astuple

from sandbox.base import BotCode, Limits

CHUNK = 1 << 20


def code_digest(code: BotCode) -> str:
    """SHA-256 of the bot's files as the container sees them (names, types, modes, bytes)."""
    h = hashlib.sha256()
    root = str(code.root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, root)
            h.update(f"{rel}\0{stat.S_IFMT(st.st_mode)}\0{stat.S_IMODE(st.st_mode)}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(path).encode() + b"\0")
            elif stat.S_ISREG(st.st_mode):
                h.update(f"{st.st_size}\0".encode())
                with open(path, "rb") as fh:
                    while chunk := fh.read(CHUNK):
                        h.update(chunk)
    return h.hexdigest()


def reuse_key(code: BotCode, limits: Limits, labels: dict[str, str]) -> str:
    """The version a reset container may serve again: code, entry, language, limits, owner."""
    parts = (code_digest(code), code.entry, code.language, repr(astuple(limits)))
    return hashlib.sha256("\0".join((*parts, labels.get("owner", ""))).encode()).hexdigest()
