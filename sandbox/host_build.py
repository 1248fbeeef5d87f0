"""Building a bot with this machine's toolchain: what the process backend does before it runs a
compiled bot (or checks the syntax of an interpreted one), with the build command of its
language (``sandbox.languages``), in the bot's own temporary folder.

The build runs with a wall-clock limit, CPU, memory, file-size and process caps, its output
kept to a file whose first lines make the error message, in its own session (killed as a
whole), and under bubblewrap when it is installed: no network, and nothing of the host but
/usr and the toolchains. It is no security
boundary (nor is the process backend); Docker's builds happen in a build container.

Builds are cached by the digest of the bot's files, the command and the toolchain, so that a
tournament or a test session compiles each bot once: a hit copies the built folder back.

A build runs the uploader's code (a ``build.rs``): what it leaves in the folder is read,
copied and made executable only through ``sandbox.untrusted`` (no link followed, regular files
only), and past ``built.ARTIFACT_MAX_BYTES`` (watched while it runs) the build fails.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from sandbox import untrusted
from sandbox.base import BotCode, SandboxError
from sandbox.built import ARTIFACT_MAX_BYTES, ARTIFACT_MAX_FILES, output_over_cap, output_too_large
from sandbox.bundle_limits import BundleError
from sandbox.code import bot_dir_base
from sandbox.languages import Language, get_language

BWRAP = "/usr/bin/bwrap"
#: Wall-clock limit of one build (rustc and javac start slowly; a compiler bomb stops here).
BUILD_TIMEOUT_S = 120
#: Address space of the compiler (a JVM for javac, rustc and cc1plus want a lot of it).
BUILD_MEMORY_MB = 4096
BUILD_FILE_MB = 256
BUILD_PROCESSES = 256
#: Lines of the compiler's output the error message shows.
ERROR_LINES = 12
OUTPUT_CAP = 64 * 1024
#: Builds kept in the cache (the oldest are removed past this).
CACHE_ENTRIES = 64
#: How often a running build's folder is measured against the cap.
WATCH_S = 2.0
_MB = 1024 * 1024

PUBLIC_BUILD_FAILED = "the bot's code did not build (its owner can see why by uploading it)"

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


class BuildFailed(BundleError):
    """The bot's code did not build: the bot's fault. ``str()`` holds the compiler's first
    lines (for the bot's owner); ``public`` names nothing of the code."""

    def __init__(self, message: str) -> None:
        super().__init__(message, public=PUBLIC_BUILD_FAILED)


def tool_paths(lang: Language) -> dict[str, str]:
    """The host's programs for ``lang`` (name -> path); :class:`SandboxError` naming the first
    one missing: "this machine cannot run C++ bots: g++ not found"."""
    found: dict[str, str] = {}
    for tool in lang.host_tools:
        path = shutil.which(tool)
        if path is None:
            raise SandboxError(
                f"this machine cannot run {lang.name.split(' (')[0]} bots: {tool} not found "
                f"(install it, or run bots with the Docker backend)"
            )
        found[tool] = path
    return found


def host_run_command(lang: Language) -> tuple[list[str], list[str]]:
    """The command that runs a built bot of ``lang`` in its folder, its program resolved on
    this machine (``node`` -> /usr/bin/node), and the host folders it needs visible beyond
    /usr (a runtime installed elsewhere; a JVM's configuration, linked from /etc)."""
    program, *args = lang.run
    binds: list[str] = []
    if not program.startswith("./"):
        found = shutil.which(program)
        if found is None:
            tool_paths(lang)  # the clear message
            raise SandboxError(f"{program} not found")
        # Its real path: /usr/bin/java links through /etc/alternatives, which a bot cannot see.
        program = os.path.realpath(found)
        binds = _tool_binds([program])
    return [program, *args], binds


def _outermost(folders: list[str]) -> list[str]:
    kept: list[str] = []
    for folder in sorted(set(folders), key=len):
        if not any(folder == k or folder.startswith(k + "/") for k in kept):
            kept.append(folder)
    return kept


def missing_tools(lang: Language) -> list[str]:
    """The host tools of ``lang`` this machine lacks (empty: it can run such bots)."""
    return [t for t in lang.host_tools if shutil.which(t) is None]


def _bwrap_build(root: Path, tools: dict[str, str]) -> list[str]:
    """bubblewrap for a build: /usr and the toolchains read-only, the bot's folder writable, a
    private /tmp, no network, its own pid namespace; nothing else of the host (no /etc but its
    alternatives' links, no /root or /home: a build script cannot read what is not there)."""
    args = [BWRAP, "--unshare-all", "--die-with-parent", "--new-session"]
    args += ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    # Debian's alternatives (cc, c++, javac are links through /etc/alternatives): links only.
    binds = ["/etc/alternatives"] if os.path.isdir("/etc/alternatives") else []
    for folder in [*binds, *_tool_binds(tools.values())]:
        args += ["--ro-bind", folder, folder]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    args += ["--bind", str(root), str(root), "--chdir", str(root), "--"]
    return args


def _tool_binds(programs: Iterable[str]) -> list[str]:
    """Host folders the programs need beyond /usr: an installation elsewhere (rustup's
    ~/.cargo and its toolchains in RUSTUP_HOME), a JDK's configuration linked from /etc."""
    binds: list[str] = []
    for program in programs:
        real = Path(os.path.realpath(program))
        if not str(real).startswith("/usr/"):
            binds.append(str(real.parent.parent))
        if real.name == "rustup":
            binds.append(os.environ.get("RUSTUP_HOME") or str(Path.home() / ".rustup"))
        conf = real.parent.parent / "conf"
        if conf.is_dir():  # Debian's JDK links its conf/ files into /etc/java-17-openjdk
            binds += [
                str(Path(os.path.realpath(p)).parent) for p in conf.rglob("*") if p.is_symlink()
            ]
    return _outermost([b for b in binds if os.path.isdir(b)])


def build_env(lang: Language, tools: dict[str, str]) -> dict[str, str]:
    """A small environment: the tools' real folders on PATH (/usr/bin/javac links through
    /etc/alternatives, which a build does not see; rustup's cargo lives in ~/.cargo/bin), the
    language's own variables (caches in /tmp)."""
    real = [str(Path(os.path.realpath(p)).parent) for p in tools.values()]
    folders = dict.fromkeys([*real, *(str(Path(p).parent) for p in tools.values())])
    path = ":".join([*folders, "/usr/local/bin", "/usr/bin", "/bin"])
    env = {"PATH": path, "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}
    if "RUSTUP_HOME" in os.environ:
        env["RUSTUP_HOME"] = os.environ["RUSTUP_HOME"]
    env.update(lang.env)
    return env


def build_bot(code: BotCode) -> None:
    """Build (or syntax-check) ``code`` in its folder with its language's command. Nothing for
    a language with neither. Raises :class:`BuildFailed` (the bot's fault) or
    :class:`SandboxError` (this machine's: a missing toolchain)."""
    lang = get_language(code.language)
    command = lang.build or lang.check
    if not command:
        return
    tools = tool_paths(lang)
    key = _digest(code.root, lang, tools)
    with _lock(key):
        cached = _cache_base() / key
        if cached.is_dir():
            untrusted.copy_tree(
                cached, code.root, max_bytes=ARTIFACT_MAX_BYTES, max_files=ARTIFACT_MAX_FILES
            )
            os.utime(cached)  # recently used: kept by the pruning
        else:
            _run(code.root, command, build_env(lang, tools), lang)
            _store(code.root, cached)
    _make_runnable(code.root)


def _run(root: Path, command: tuple[str, ...], env: dict[str, str], lang: Language) -> None:
    argv = list(command)
    if os.access(BWRAP, os.X_OK):
        argv = [*_bwrap_build(root, tool_paths(lang)), *argv]
    with tempfile.TemporaryFile() as out:
        try:
            proc = subprocess.Popen(
                argv,
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
                preexec_fn=_build_limits,
            )
        except OSError as exc:
            raise SandboxError(f"cannot start the {lang.name} build: {exc}") from exc
        try:
            rc = _wait_watched(proc, root, lang)
        finally:
            _kill(proc)  # whatever the build left running in its session
        too_large = output_over_cap(root)
        if too_large:
            raise BuildFailed(f"the {lang.name} build failed: {too_large}")
        if rc != 0:
            out.seek(0)
            raise BuildFailed(_failure(lang, rc, out.read(OUTPUT_CAP + 1)))


def _wait_watched(proc: subprocess.Popen[bytes], root: Path, lang: Language) -> int:
    """The build's exit status; :class:`BuildFailed` when it runs too long or its folder
    passes the cap meanwhile (it is then killed)."""
    deadline = time.monotonic() + BUILD_TIMEOUT_S
    while True:
        try:
            return proc.wait(timeout=max(0.1, min(WATCH_S, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            pass
        if time.monotonic() >= deadline:
            _kill(proc)
            raise BuildFailed(
                f"the {lang.name} build took over {BUILD_TIMEOUT_S} s and was stopped"
            )
        too_large = output_over_cap(root)
        if too_large:
            _kill(proc)
            raise BuildFailed(f"the {lang.name} build failed: {too_large}")


def failure_message(name: str, how: str, output: bytes, *, file_mb: int) -> str:
    """What the owner of a bot whose build failed reads: the language, how the build ended,
    a plain sentence when it hit one of the build's limits (the compiler's own words then
    blame itself: "internal compiler error... submit a bug report"), and the compiler's
    first lines. ``output`` is what was kept of it: :data:`OUTPUT_CAP` bytes at most, more
    only when it was cut there. Shared by the host's and Docker's builds."""
    cut = len(output) > OUTPUT_CAP
    text = output[:OUTPUT_CAP].decode("utf-8", "replace")
    lines = text.splitlines()
    limits = []
    if "File size limit exceeded" in text:
        limits.append(f"a file the build wrote passed the build's limit of {file_mb} MB")
    if cut:
        limits.append(f"the compiler's output passed {OUTPUT_CAP // 1024} KiB and was cut off")
    why = "".join(f"\n(stopped at a limit: {limit})" for limit in limits)
    shown = "\n".join(lines[:ERROR_LINES]) or "(no output)"
    hidden = len(lines) - ERROR_LINES
    more = f"\n... ({hidden} more lines{' before the cut' if cut else ''})" if hidden > 0 else ""
    return f"the {name} build failed ({how}):{why}\n{shown}{more}"


def _failure(lang: Language, rc: int, output: bytes) -> str:
    how = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
    return failure_message(lang.name, how, output, file_mb=BUILD_FILE_MB)


def _build_limits() -> None:
    """Between fork and exec: setrlimit calls only."""
    cpu = BUILD_TIMEOUT_S
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (BUILD_MEMORY_MB * _MB, BUILD_MEMORY_MB * _MB))
    resource.setrlimit(resource.RLIMIT_FSIZE, (BUILD_FILE_MB * _MB, BUILD_FILE_MB * _MB))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _kill(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def _digest(root: Path, lang: Language, tools: dict[str, str]) -> str:
    h = hashlib.sha256()
    h.update(repr((lang.key, lang.build, lang.check, sorted(lang.env.items()))).encode())
    for name, path in sorted(tools.items()):
        real = os.path.realpath(path)
        h.update(f"{name}={real}:{os.stat(real).st_mtime_ns}".encode())
    # The bot's files, read without following a link (what is not a regular file is not
    # the bot's: a copy never takes it).
    fd = untrusted.open_root(root)
    try:
        for entry in untrusted.walk(fd, max_bytes=ARTIFACT_MAX_BYTES, max_files=ARTIFACT_MAX_FILES):
            if entry.is_dir:
                continue
            h.update(entry.rel.encode() + b"\0")
            file_hash = hashlib.sha256()
            for chunk in untrusted.file_chunks(fd, entry.rel, ARTIFACT_MAX_BYTES):
                file_hash.update(chunk)
            h.update(file_hash.digest())
    except untrusted.TooLarge as exc:
        raise BuildFailed(f"the bot is too large to build: {exc}") from None
    finally:
        os.close(fd)
    return h.hexdigest()[:32]


def _cache_base() -> Path:
    base = bot_dir_base() / "builds"
    base.mkdir(mode=0o700, exist_ok=True)
    return base


def _store(root: Path, cached: Path) -> None:
    """Keep the built folder (written aside, then renamed: never half a build), and prune."""
    base = cached.parent
    part = Path(tempfile.mkdtemp(prefix=".part-", dir=base))
    try:
        untrusted.copy_tree(root, part, max_bytes=ARTIFACT_MAX_BYTES, max_files=ARTIFACT_MAX_FILES)
        os.replace(part, cached)
    except (OSError, untrusted.TooLarge):
        shutil.rmtree(part, ignore_errors=True)
        return  # a cache is an optimisation: a failure to keep it is no failure
    entries = sorted(
        (p for p in base.iterdir() if not p.name.startswith(".")),
        key=lambda p: p.stat().st_mtime,
    )
    for old in entries[:-CACHE_ENTRIES]:
        shutil.rmtree(old, ignore_errors=True)


def _lock(key: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())


def _make_runnable(root: Path) -> None:
    """What the build wrote readable by the bot's own user, executables executable (nothing
    followed: a link the build left is not changed, nor what it points at)."""
    fd = untrusted.open_root(root)
    try:
        untrusted.chmod(fd, ".", 0o755)
        for entry in untrusted.walk(fd, max_bytes=ARTIFACT_MAX_BYTES, max_files=ARTIFACT_MAX_FILES):
            mode = 0o755 if entry.is_dir or entry.mode & 0o100 else 0o644
            with contextlib.suppress(OSError):  # replaced meanwhile: not followed
                untrusted.chmod(fd, entry.rel, mode)
    except untrusted.TooLarge as exc:
        raise BuildFailed(f"the build failed: {output_too_large(exc)}") from None
    finally:
        os.close(fd)
