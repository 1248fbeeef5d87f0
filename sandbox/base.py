"""The contract between the referee and a sandbox backend.

A backend starts one bot process per seat per match and gives the referee a line pipe to it.
It knows nothing of games or of the protocol's messages: it moves lines, enforces limits, and
always cleans up what it started.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


class SandboxError(RuntimeError):
    """The platform failed (engine missing, image not built, cannot start): a system error,
    never the bot's fault. The message says what to run to fix it."""


class BotGone(Exception):
    """The bot's process ended or closed its stdout. ``reason`` says how, when known."""

    def __init__(self, reason: str = "exited") -> None:
        super().__init__(reason)
        self.reason = reason


class UnsafeSandboxWarning(UserWarning):
    """Bots are running without a security boundary (the process backend)."""


class LineTooLong(Exception):
    """The bot wrote more than ``Limits.max_line_bytes`` without a newline."""


@dataclass(frozen=True)
class Limits:
    """Per-bot resource limits. Defaults suit one seat of one match."""

    memory_mb: int = 512
    cpus: float = 1.0
    pids: int = 64
    tmpfs_mb: int = 64
    file_size_mb: int = 16
    open_files: int = 256
    cpu_seconds: int = 600  # hard CPU-time cap for the whole match (rlimit)
    max_line_bytes: int = 1 << 20
    stderr_cap_bytes: int = 64 * 1024


@dataclass(frozen=True)
class BotCode:
    """A bot ready to run: a directory holding its sources (``main.py``, run as
    ``python3 main.py``, or another language's: ``sandbox.languages``)."""

    root: Path
    entry: str = "main.py"
    labels: dict[str, str] = field(default_factory=dict)
    #: True for a copy made by ``sandbox.code.prepare_bot``: ``release_bot`` deletes it.
    temporary: bool = False
    #: Its language, a key of ``sandbox.languages.LANGUAGES``: how it is built and run.
    language: str = "python"
    #: True for a stored build (the worker's check built it; the worker verified it against
    #: the match spec's artifact hash): run as it is, never compiled again. Said by whoever
    #: prepares the code, never read from the folder's files.
    built: bool = False


class BotProcess(ABC):
    """One running bot: a JSON-lines pipe plus its captured stderr."""

    @abstractmethod
    def send_line(self, line: str | bytes) -> None:
        """Write one line (a ``\\n`` is appended; bytes are sent as they are, text as UTF-8).
        Raises :class:`BotGone` if it cannot."""

    @abstractmethod
    def read_line(self, timeout_s: float) -> str | None:
        """The next complete line without its newline, or ``None`` if none came in time.
        Raises :class:`BotGone` on end of output, :class:`LineTooLong` past the cap."""

    @abstractmethod
    def stderr_text(self) -> str:
        """What the bot wrote to stderr so far, capped at ``Limits.stderr_cap_bytes``."""

    @abstractmethod
    def stderr_mark(self) -> int:
        """Where the bot's stderr has got to: first takes in what is readable now, without
        waiting. Cheap (a non-blocking read), for the referee to call after every answer;
        marks mean something only to :meth:`stderr_offsets`. Never raises."""

    @abstractmethod
    def stderr_offsets(self, marks: Sequence[int]) -> list[int]:
        """The character offsets into :meth:`stderr_text` (as it is now) of ``marks`` (from
        :meth:`stderr_mark`, in order): ``text[a:b]`` is what came between marks ``a`` and
        ``b``. Text past the cap is in no range."""

    @abstractmethod
    def close(self, grace_s: float = 0.5) -> None:
        """End the bot (after ``grace_s`` for it to exit by itself) and free everything it
        held. Idempotent; never raises; leaves no process or container behind."""

    @abstractmethod
    def exit_reason(self) -> str | None:
        """Why the process ended (``"exited 1"``, ``"killed: memory"``...), or None if alive."""

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(grace_s=0)


class Sandbox(ABC):
    """A backend that starts bots."""

    name: str = ""
    #: True only where bots are contained (Docker). The process backend is not a boundary.
    is_security_boundary: bool = False

    @abstractmethod
    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        """Start one bot. ``labels`` (e.g. ``{"match": id, "seat": "0"}``) mark what it
        starts so that :meth:`reap` can find leftovers. Raises :class:`SandboxError`."""

    def reap(self, labels: dict[str, str] | None = None) -> int:
        """Remove anything this backend started that matches ``labels`` (all if None) and is
        still around, e.g. after a worker died. Returns how many were removed."""
        return 0
