"""What a language is: the :class:`Language` every language file of ``sandbox/languages/``
makes one of, and the shared pieces their entries are built from (an image name, a compiled
program's command).

A language is data plus its quirks, as its own attributes and methods: how a bundle is
recognised (its single source file, the files that mark a zip of it), how it is built (a
command run in the bot's folder, in a build sandbox with no network; nothing for an
interpreted language, which may have a syntax check instead), how the built bot runs (a
command run in its folder), the Docker image holding its runtime, its default limits, and its
own programs (a minimal bot and one that fails its check) with which it tests itself.
Consumers ask the language (``lang.run_command(entry)``, ``lang.sandbox_runtime``...), never
its key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

#: The built program of a compiled language, in the bot's folder after its build.
BINARY = "bot"
#: Runs the compiled programs of C++, Rust and Go (Debian's libc, libstdc++ and libgcc).
NATIVE = "native"


def image(key: str) -> str:
    """The image deploy/build-language-images.sh makes for ``key`` (a language or ``native``)."""
    return f"meeple-arena/bot-{key}:deb12-1"


def build_binary(command: str) -> tuple[str, ...]:
    """A build that leaves :data:`BINARY` (``command`` is a shell line naming it)."""
    return ("sh", "-c", command)


@dataclass(frozen=True)
class Language:
    """One language a bot may be written in."""

    #: Short name used everywhere (``--lang cpp``, the API's ``language``): lowercase ASCII.
    key: str
    #: As people read it: "C++ (g++ 12, C++20)".
    name: str
    #: The single-file upload: ``main.cpp``, ``Main.java``...
    source: str
    #: Suffixes of its source files (a zip of several ``.cpp`` files is C++).
    suffixes: tuple[str, ...]
    #: Where the lists of languages show it (the site's choices, recognition's order).
    order: int
    #: Its own minimal bot (``source``'s content): answers ``start`` with ready and every
    #: ``act`` with its first legal action, exits at ``end``. The language tests itself with
    #: it (``sandbox.languages.self_test``) in every backend.
    hello: bytes = field(default=b"", repr=False)
    #: Code its build (or check) refuses, and what the compiler then says in its message.
    broken: bytes = field(default=b"", repr=False)
    broken_says: str = ""
    #: Files whose presence at the bot's top marks a zip as this language (``Cargo.toml``).
    markers: tuple[str, ...] = ()
    #: The build command, run in the bot's folder with no network; () builds nothing.
    build: tuple[str, ...] = ()
    #: A syntax check for a language with no build (run like a build; () for none).
    check: tuple[str, ...] = ()
    #: The command that runs the (built) bot, in its folder.
    run: tuple[str, ...] = ()
    #: Environment of the build and of the run (caches in /tmp: the bot's folder is read-only
    #: when it plays).
    env: dict[str, str] = field(default_factory=dict)
    #: Docker image with what the run needs (meeple-arena/bot-<key>:…); the build uses
    #: ``build_image`` (the toolchain), which may be the same.
    image: str = ""
    build_image: str = ""
    #: Programs the process backend needs on the host to build and run it.
    host_tools: tuple[str, ...] = ()
    #: Memory a seat of this language gets by default (a JVM wants more than a C++ binary).
    memory_mb: int = 512
    #: Processes and threads a seat may have (a JVM starts a dozen threads of its own).
    pids: int = 64
    #: Address space the process backend allows beyond ``memory_mb`` (its memory cap is
    #: RLIMIT_AS, which counts what a runtime reserves, not what it uses: a JVM, V8 and Go's
    #: runtime reserve far more than they touch and do not start under a tight cap).
    reserve_mb: int = 0
    #: True for the language of the sandbox's own runtime: its bots run in the Docker
    #: backend's configured image (and may be served by its warm pool, whose supervisor is
    #: that language's program) and under the process backend's bot interpreter
    #: (``ARENA_BOT_PYTHON``), not in an image and a host tool of their own.
    sandbox_runtime: bool = False
    #: True when the upload check compiles every source in a child on the site
    #: (``sandbox.compile_check``) instead of a build or a syntax check in a build sandbox.
    checked_by_compiling: bool = False
    #: What an uploaded bot of it runs with, as people read it ("" : its standard library).
    runtime_note: str = ""

    @property
    def compiled(self) -> bool:
        return bool(self.build)

    @property
    def prepared(self) -> bool:
        """True when a bot of it is built or checked before its first start; False when it
        runs its entry as it is (which must then be there)."""
        return bool(self.build or self.check)

    @property
    def runtime(self) -> str:
        """What an uploaded bot of it runs with (the upload page, the starter's README)."""
        return self.runtime_note or (
            f"{self.name}, its standard library only; no network, and nothing can be installed"
        )

    def run_command(self, entry: str) -> list[str]:
        """The command that runs a bot whose entry file is ``entry`` (the language's
        ``source`` unless a caller named another)."""
        del entry  # a compiled program, or a runtime that finds its own entry
        return list(self.run)

    def sources(self, files: list[str] | tuple[str, ...]) -> list[str]:
        """The files among ``files`` (paths relative to the bot's top) that are its sources."""
        return sorted(f for f in files if PurePosixPath(f).suffix in self.suffixes)


@dataclass(frozen=True)
class RunsItsEntry(Language):
    """An interpreted language whose run command ends with the entry file it runs
    (``python3 -u main.py``): a bot whose entry is named otherwise runs that file."""

    def run_command(self, entry: str) -> list[str]:
        return [*self.run[:-1], entry]


@dataclass(frozen=True)
class NativeProgram(Language):
    """A compiled language whose build leaves :data:`BINARY`, run as it is in the ``native``
    image (libc only)."""

    run: tuple[str, ...] = (f"./{BINARY}",)
    image: str = image(NATIVE)
