"""What a bot's files may be (sizes, counts, name lengths, compression methods), and the error
that says why they are not: shared by the upload check, the zip walk and the compile check."""

from __future__ import annotations

import zipfile

ENTRY = "main.py"
#: Default cap of an uploaded file (the site passes its own setting).
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
#: All files of one bot, uncompressed, and how many entries a zip may hold.
MAX_UNPACKED_BYTES = 32 * 1024 * 1024
MAX_FILES = 1000
#: One name in a path, a whole path, and folders deep, in UTF-8 bytes: below every file
#: system's limits (255 bytes a name, 4096 a path) with room for the folder it unpacks into.
MAX_NAME_BYTES = 128
MAX_PATH_BYTES = 512
MAX_DEPTH = 16
#: Zip compression methods, each read in bounded steps (sandbox.zipwalk.read_member).
METHODS = {
    zipfile.ZIP_STORED: "stored",
    zipfile.ZIP_DEFLATED: "deflate",
    zipfile.ZIP_BZIP2: "bzip2",
    zipfile.ZIP_LZMA: "lzma",
}
#: Folders that archivers add and bots never need; skipped on both sides.
IGNORED_TOP = {"__MACOSX"}
PUBLIC_MESSAGE = "the bot's code could not be prepared (its owner can see why by uploading it)"


class BundleError(ValueError):
    """Not a usable bot. ``str()`` is the uploader's message; ``public`` names no private file."""

    def __init__(self, message: str, *, public: str = PUBLIC_MESSAGE) -> None:
        super().__init__(message)
        self.message = message
        self.public = public


def format_bytes(n: int) -> str:
    """A size as people read it: ``2.0 MiB``, ``12 KiB``."""
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KiB"


def shown(name: str) -> str:
    """A member name quoted for a message, clipped."""
    text = repr(name)
    return text if len(text) <= 80 else text[:77] + "...'"


def clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
