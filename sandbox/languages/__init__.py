"""The languages a bot may be written in: one entry each, the one place that the upload check,
the build step, the sandbox backends, the site, the API, the command line and the docs read.

A language is data: how a bundle is recognised (its single source file, the files that mark a
zip of it), how it is built (a command run in the bot's folder, in a build sandbox with no
network; nothing for an interpreted language, which may have a syntax check instead), how the
built bot runs (a command run in its folder), the Docker image holding its runtime, and its
default limits. Versions are Debian 12's packages, which the runtime images are built from
(deploy/build-runtime-image.sh). Adding a language is one entry here, its starter bot
(arena/starters/) and a test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

#: The built program of a compiled language, in the bot's folder after its build.
BINARY = "bot"


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

    @property
    def compiled(self) -> bool:
        return bool(self.build)

    def sources(self, files: list[str] | tuple[str, ...]) -> list[str]:
        """The files among ``files`` (paths relative to the bot's top) that are its sources."""
        return sorted(f for f in files if PurePosixPath(f).suffix in self.suffixes)


_IMAGE = "meeple-arena/bot-{key}:deb12-1"

LANGUAGES: dict[str, Language] = {
    lang.key: lang
    for lang in (
        Language(
            key="python",
            name="Python 3.11",
            source="main.py",
            suffixes=(".py",),
            run=("python3", "-u", "-E", "-s", "main.py"),
            image="meeple-arena/bot-runtime:py3.11-1",
            build_image="meeple-arena/bot-runtime:py3.11-1",
            host_tools=("python3",),
        ),
        Language(
            key="javascript",
            name="JavaScript (Node.js 18)",
            source="main.js",
            suffixes=(".js", ".mjs", ".cjs", ".json"),
            markers=("package.json",),
            check=("node", "--check", "main.js"),
            run=("node", "--max-old-space-size=384", "main.js"),
            image=_IMAGE.format(key="javascript"),
            build_image=_IMAGE.format(key="javascript"),
            host_tools=("node",),
            reserve_mb=512,
        ),
        Language(
            key="java",
            name="Java 17 (OpenJDK)",
            source="Main.java",
            suffixes=(".java",),
            build=(
                "sh",
                "-c",
                "mkdir -p classes && javac -encoding UTF-8 -d classes $(find . -name '*.java')",
            ),
            # One GC thread, a small JIT: a JVM's own threads stay within the pids limit.
            run=(
                "java",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=1",
                "-Xss8m",
                "-Xmx384m",
                # Small reservations for classes and code (1 GiB and 240 MiB by default).
                "-XX:CompressedClassSpaceSize=64m",
                "-XX:ReservedCodeCacheSize=32m",
                "-Xshare:auto",
                "-cp",
                "classes",
                "Main",
            ),
            env={"JAVA_TOOL_OPTIONS": "-Djava.io.tmpdir=/tmp"},
            image=_IMAGE.format(key="java"),
            build_image=_IMAGE.format(key="java"),
            host_tools=("javac", "java"),
            memory_mb=768,
            pids=96,
            reserve_mb=1280,
        ),
        Language(
            key="cpp",
            name="C++20 (g++ 12)",
            source="main.cpp",
            suffixes=(".cpp", ".cc", ".cxx", ".hpp", ".h"),
            build=(
                "sh",
                "-c",
                f"g++ -std=c++20 -O2 -pipe -o {BINARY} $(find . -name '*.cpp' -o -name '*.cc' "
                "-o -name '*.cxx')",
            ),
            run=(f"./{BINARY}",),
            image=_IMAGE.format(key="native"),
            build_image=_IMAGE.format(key="cpp"),
            host_tools=("g++",),
        ),
        Language(
            key="rust",
            name="Rust 1.63 (rustc, Cargo without crates)",
            source="main.rs",
            suffixes=(".rs",),
            markers=("Cargo.toml",),
            # A Cargo project (no dependencies: the build has no network) or a single main.rs.
            build=(
                "sh",
                "-c",
                "if [ -f Cargo.toml ]; then cargo build --release --offline --quiet && "
                f'cp "$(find target/release -maxdepth 1 -type f -perm -u+x | head -n1)" {BINARY}; '
                f"else rustc --edition 2021 -O -o {BINARY} main.rs; fi",
            ),
            run=(f"./{BINARY}",),
            env={"CARGO_HOME": "/tmp/cargo", "CARGO_TARGET_DIR": "target"},
            image=_IMAGE.format(key="native"),
            build_image=_IMAGE.format(key="rust"),
            host_tools=("rustc", "cargo"),
        ),
        Language(
            key="go",
            name="Go 1.19",
            source="main.go",
            suffixes=(".go",),
            markers=("go.mod",),
            build=(
                "sh",
                "-c",
                f"if [ -f go.mod ]; then go build -o {BINARY} .; "
                f"else go build -o {BINARY} main.go; fi",
            ),
            run=(f"./{BINARY}",),
            # Caches in /tmp; no module download (no network); one OS thread per core is plenty.
            env={
                "GOCACHE": "/tmp/gocache",
                "GOPATH": "/tmp/gopath",
                "GOFLAGS": "-mod=mod",
                "GOPROXY": "off",
                "CGO_ENABLED": "0",
                "GOMAXPROCS": "2",
            },
            image=_IMAGE.format(key="native"),
            build_image=_IMAGE.format(key="go"),
            host_tools=("go",),
            reserve_mb=512,
        ),
    )
}

DEFAULT = "python"


class UnknownLanguage(ValueError):
    """A language key that no entry has; the message lists the ones there are."""


def get_language(key: str | None) -> Language:
    """The language ``key`` (None or "": Python, what every bot was before languages)."""
    if not key:
        return LANGUAGES[DEFAULT]
    try:
        return LANGUAGES[key]
    except KeyError:
        raise UnknownLanguage(
            f"unknown language {key!r}; choose one of {', '.join(LANGUAGES)}"
        ) from None


def recognise(files: list[str] | tuple[str, ...]) -> list[Language]:
    """The languages a bot folder of ``files`` (relative POSIX paths) may be: marked by a
    build file at its top first, else by holding the language's entry source (``main.py``,
    ``Main.java``...) at its top. Usually one; several when the bundle is ambiguous (the
    uploader then says which), none when it is no bot."""
    top = {f for f in files if "/" not in f}
    marked = [lang for lang in LANGUAGES.values() if any(m in top for m in lang.markers)]
    if marked:
        return marked
    return [lang for lang in LANGUAGES.values() if lang.source in top]
