"""The Docker backend: one container per seat per match, talked to over the attach socket.

Each container: no network, read-only root, a size-capped tmpfs /tmp, memory without swap, a
process-count limit, a CPU quota, all capabilities dropped, no-new-privileges, user nobody,
file-size/open-file/CPU-time ulimits, the bot's code mounted read-only at /bot, and no log
driver (a bot's output never reaches the host's disk). Every container carries labels naming
its match and worker, and is always removed through the engine's API: on close, by
:meth:`DockerSandbox.reap` when a referee is interrupted, at interpreter exit, and by
:meth:`DockerSandbox.reap_orphans` for containers a dead worker left behind.

Every engine call has a timeout (``api_timeout_s``), and the attach socket is closed before
a container is killed: a kill of a container whose output nobody reads can otherwise hang.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import select
import signal
import socket
import threading
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.base import BotCode, BotGone, BotProcess, Limits, Sandbox, SandboxError
from sandbox.lines import CappedText, LineBuffer

if TYPE_CHECKING:
    from sandbox.pool import WarmPool

log = logging.getLogger("sandbox.docker")

#: The one image bots run in. deploy/build-runtime-image.sh builds it from local files;
#: deploy/runtime/Dockerfile builds it from python:3.11-slim.
RUNTIME_IMAGE = "meeple-arena/bot-runtime:py3.11-1"
BUILD_COMMAND = "deploy/build-runtime-image.sh"
LABEL = "meeple-arena"  # label prefix; "meeple-arena.sandbox=1" marks every bot container
BOT_USER = "65534:65534"


def _start_ticks(pid: int) -> str:
    """A process's start time (clock ticks since boot): with the pid, it names one process
    even after the pid is reused."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        return stat[stat.rindex(")") + 2 :].split()[19]
    except (OSError, ValueError, IndexError):
        return "0"


_worker_ids: dict[int, str] = {}


def worker_id() -> str:
    """host:pid:start-ticks of this worker process, a label on every container it starts.
    Computed per pid: a Celery pool child forked after import gets its own."""
    pid = os.getpid()
    wid = _worker_ids.get(pid)
    if wid is None:
        wid = _worker_ids[pid] = f"{socket.gethostname()}:{pid}:{_start_ticks(pid)}"
    return wid


#: this process's worker id at import (kept for callers that read it once)
WORKER_ID = worker_id()

#: this worker's live bot containers (DockerBot, and the pool's PooledBot), for reap and exit
_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


def pool_size_setting() -> int:
    """``ARENA_DOCKER_POOL``: warm containers kept per worker process (0 or unset: none)."""
    raw = (os.environ.get("ARENA_DOCKER_POOL") or "0").strip()
    try:
        size = int(raw)
    except ValueError:
        raise SandboxError(
            f"ARENA_DOCKER_POOL must be a whole number of containers (0 = no pool), got {raw!r}"
        ) from None
    if not 0 <= size <= 64:
        raise SandboxError(f"ARENA_DOCKER_POOL must be between 0 and 64, got {size}")
    return size


def _engine_hint() -> str:
    host = os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    return (
        f"no Docker engine answers at {host}: start it (e.g. 'dockerd > /tmp/dockerd.log 2>&1 &' "
        "or 'systemctl start docker'), set DOCKER_HOST, or use ARENA_SANDBOX=process for "
        "your own bots"
    )


class DockerSandbox(Sandbox):
    name = "docker"
    is_security_boundary = True

    def __init__(
        self,
        image: str = RUNTIME_IMAGE,
        *,
        api_timeout_s: float = 15.0,
        runtime: str | None = None,
        pool_size: int | None = None,
    ) -> None:
        """``runtime`` picks an OCI runtime (e.g. ``runsc`` for gVisor) where installed;
        ``pool_size`` warm containers per limits (None: ``ARENA_DOCKER_POOL``, 0: no pool)."""
        self.image = image
        self.api_timeout_s = api_timeout_s
        self.runtime = runtime or os.environ.get("ARENA_DOCKER_RUNTIME") or None
        self._client: Any = None
        self.pool_size = pool_size_setting() if pool_size is None else max(0, int(pool_size))
        self._pool: WarmPool | None = None
        self._pool_pid = 0

    # -- engine ------------------------------------------------------------------------
    @property
    def client(self) -> Any:
        if self._client is None:
            try:
                import docker
            except ImportError as e:  # pragma: no cover - a dependency of the project
                raise SandboxError(f"the docker package is missing ({e})") from e
            try:
                self._client = docker.from_env(timeout=int(self.api_timeout_s))
            except docker.errors.DockerException as e:
                raise SandboxError(f"{_engine_hint()} ({e})") from None
        return self._client

    def check(self) -> None:
        """Raise :class:`SandboxError` saying what to run unless the engine answers and the
        runtime image exists."""
        import docker

        try:
            self.client.ping()
        except SandboxError:
            raise
        except Exception as e:
            raise SandboxError(f"{_engine_hint()} ({type(e).__name__})") from None
        try:
            self.client.images.get(self.image)
        except docker.errors.ImageNotFound:
            raise SandboxError(
                f"the bot runtime image {self.image} is not built: run {BUILD_COMMAND}"
            ) from None
        except Exception as e:
            raise SandboxError(f"cannot inspect image {self.image}: {e}") from None

    def _container_kwargs(
        self,
        code: BotCode,
        labels: dict[str, str],
        limits: Limits,
        *,
        command: list[str] | None = None,
        extra_volumes: dict[str, dict[str, str]] | None = None,
        stdin: bool = True,
    ) -> dict:
        """Everything a bot container is created with. The warm pool (``sandbox.pool``) uses
        the very same, with its loader as ``command``, an empty code folder, its FIFO folder
        as ``extra_volumes`` and no attached stdin."""
        from docker.types import LogConfig, Ulimit

        mb = 1024 * 1024
        all_labels = {f"{LABEL}.sandbox": "1", f"{LABEL}.worker": worker_id()}
        all_labels.update({f"{LABEL}.{k}": str(v) for k, v in labels.items()})
        kw: dict[str, Any] = dict(
            command=command or ["python3", "-u", code.entry],
            stdin_open=stdin,
            tty=False,
            user=BOT_USER,
            working_dir="/bot",
            environment={
                "HOME": "/tmp",
                "PYTHONUNBUFFERED": "1",
                "PYTHONDONTWRITEBYTECODE": "1",
                "LANG": "C.UTF-8",
            },
            hostname="bot",
            labels=all_labels,
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"rw,nosuid,nodev,noexec,size={limits.tmpfs_mb}m,mode=1777"},
            volumes={str(code.root): {"bind": "/bot", "mode": "ro"}, **(extra_volumes or {})},
            mem_limit=f"{limits.memory_mb}m",
            memswap_limit=f"{limits.memory_mb}m",  # equal to memory: no swap beyond it
            pids_limit=limits.pids,
            nano_cpus=int(limits.cpus * 1e9),
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            ipc_mode="private",
            shm_size="16m",
            init=True,  # tini as pid 1: reaps zombies, and a bot cannot signal the engine
            ulimits=[
                Ulimit(name="fsize", soft=limits.file_size_mb * mb, hard=limits.file_size_mb * mb),
                Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
                Ulimit(name="cpu", soft=limits.cpu_seconds, hard=limits.cpu_seconds + 1),
                Ulimit(name="core", soft=0, hard=0),
            ],
            log_config=LogConfig(type="none"),
        )
        if self.runtime:
            kw["runtime"] = self.runtime
        return kw

    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        if not (code.root / code.entry).is_file():
            raise SandboxError(f"bot code has no {code.entry} in {code.root}")
        pool = self.pool
        if pool is not None:
            warm = pool.acquire(code, labels, limits)
            if warm is not None:
                return warm
            # An empty pool: start this seat the cold way, and have the pool refill meanwhile.
        container, sock = self._launch(self._container_kwargs(code, labels, limits))
        bot = DockerBot(self, container, sock, limits, dict(labels))
        with _LIVE_LOCK:
            _LIVE.add(bot)
        return bot

    @property
    def pool(self) -> WarmPool | None:
        """This worker's warm pool (``ARENA_DOCKER_POOL`` containers per limits), or None."""
        if self.pool_size <= 0:
            return None
        pid = os.getpid()
        if self._pool is None or self._pool_pid != pid:
            from sandbox.pool import WarmPool

            # After a fork the parent's pool (its threads and sockets) is not ours to use.
            self._pool, self._pool_pid = WarmPool(self, self.pool_size), pid
        return self._pool

    def warm(self, limits: Limits | None = None) -> None:
        """Start filling the warm pool for ``limits`` (default ``Limits()``) in the background.
        A no-op without a pool."""
        pool = self.pool
        if pool is not None:
            pool.warm(limits or Limits())

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Wait until every container handed to the background remover is gone (tests, and
        before a worker exits). True if none is pending."""
        pool = self._pool if self._pool_pid == os.getpid() else None
        return pool.settle(timeout_s) if pool is not None else True

    def _launch(self, kwargs: dict[str, Any], *, attach: bool = True) -> tuple[Any, Any]:
        """Create a container, attach to it (unless ``attach`` is False: the pool talks over
        FIFOs), start it: ``(container, attach socket or None)``."""
        import docker

        container = None
        sock = None
        try:
            container = self.client.containers.create(self.image, **kwargs)
            if attach:
                # Attach before start so that no early output is lost.
                sock = container.attach_socket(
                    params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
                )
            container.start()
        except docker.errors.ImageNotFound:
            self._remove(container)
            raise SandboxError(
                f"the bot runtime image {self.image} is not built: run {BUILD_COMMAND}"
            ) from None
        except docker.errors.APIError as e:
            self._remove(container)
            raise SandboxError(f"the Docker engine refused to start the bot: {e}") from None
        except Exception as e:  # connection refused, timeouts
            self._remove(container)
            raise SandboxError(f"{_engine_hint()} ({type(e).__name__}: {e})") from None
        return container, sock

    def _remove(self, container: Any) -> bool:
        """Force-remove through the API (kills it first). True if gone."""
        if container is None:
            return True
        import docker

        for attempt in range(2):
            try:
                container.remove(force=True)
                return True
            except docker.errors.NotFound:
                return True
            except docker.errors.APIError as e:
                if "removal of container" in str(e) and "in progress" in str(e):
                    return True
                log.warning(
                    "removing container %s failed (%s), attempt %d", container.id, e, attempt
                )
            except Exception as e:  # timeout: the reaper will find it by its labels
                log.warning(
                    "removing container %s failed (%s), attempt %d", container.id, e, attempt
                )
        return False

    # -- clean-up ----------------------------------------------------------------------
    def _list(self, labels: dict[str, str] | None) -> list[Any]:
        filters = [f"{LABEL}.sandbox=1"]
        filters += [f"{LABEL}.{k}={v}" for k, v in (labels or {}).items()]
        try:
            return self.client.containers.list(all=True, filters={"label": filters})
        except Exception as e:
            log.warning("cannot list bot containers: %s", e)
            return []

    def reap(self, labels: dict[str, str] | None = None) -> int:
        """Remove every bot container matching ``labels`` (all bot containers if None), and
        close this worker's matching pipes. Returns how many containers were removed.

        A pooled container was created before its match was known, so it carries no match
        label: this worker finds it in its own table of live bots (labels kept in-process)."""
        with _LIVE_LOCK:
            live = list(_LIVE)
        wanted = (labels or {}).items()
        mine = [b for b in live if all(b.labels.get(k) == v for k, v in wanted)]
        for bot in mine:
            bot._close_socket()
        n = 0
        for c in self._list(labels):
            if self._remove(c):
                n += 1
        for bot in mine:
            bot.close(grace_s=0)
        for bot in mine:
            if bot.pooled and bot.wait_removed(self.api_timeout_s * 2):
                n += 1
        return n

    def reap_orphans(self, max_age_s: float | None = 6 * 3600) -> int:
        """Remove containers left by dead workers: a worker on this host whose pid is gone,
        or any bot container older than ``max_age_s`` (no match lasts that long; None: only
        the dead workers' containers, as a new warm pool does at its start)."""
        host = socket.gethostname()
        now = time.time()
        n = 0
        for c in self._list(None):
            whost, wpid, wticks = [*c.labels.get(f"{LABEL}.worker", "").split(":"), "", ""][:3]
            dead = whost == host and wpid.isdigit() and not _worker_alive(int(wpid), wticks)
            created = c.attrs.get("Created", "")
            old = max_age_s is not None and _age_s(created, now) > max_age_s
            if (dead or old) and self._remove(c):
                n += 1
                _remove_slot_folder(c)
        return n


def inspect_exit(container: Any, stderr: CappedText, wait_s: float) -> str | None:
    """Why a bot container's process ended, from the engine (waiting up to ``wait_s`` for
    it to stop), or None if it still runs or the engine cannot say."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            container.reload()
        except Exception:
            return None
        st = container.attrs.get("State", {})
        if not st.get("Running", False) and st.get("Status") != "created":
            code = int(st.get("ExitCode", 0))
            if st.get("OOMKilled"):
                return "killed: memory"
            if code == 128 + signal.SIGXCPU:
                return "killed: cpu time"
            if code > 128:
                try:
                    name = signal.Signals(code - 128).name
                except ValueError:
                    name = str(code - 128)
                return f"killed: {name}"
            if code != 0 and b"MemoryError" in stderr._buf:
                return f"exited {code} (out of memory)"
            return f"exited {code}"
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def _remove_slot_folder(container: Any) -> None:
    """A warm-pool container's slot folder (its code and FIFOs), once the container is gone:
    only a ``pool-*`` folder right under the bot folder, found through the container's mounts."""
    import shutil

    from sandbox.code import bot_dir_base
    from sandbox.pool import SLOT_PREFIX

    if container.labels.get(f"{LABEL}.pool") != "1":
        return
    base = bot_dir_base().resolve()
    for m in container.attrs.get("Mounts", []):
        folder = Path(m.get("Source", "")).parent
        if folder.parent == base and folder.name.startswith(SLOT_PREFIX):
            shutil.rmtree(folder, ignore_errors=True)
            return


def _worker_alive(pid: int, ticks: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return not ticks or _start_ticks(pid) == ticks  # else: the pid was reused


def _age_s(created: str, now: float) -> float:
    from datetime import datetime

    try:
        ts = datetime.fromisoformat(created[:26].rstrip("Z") + "+00:00").timestamp()
    except ValueError:
        return 0.0
    return now - ts


class DockerBot(BotProcess):
    """A running container: a demultiplexed attach socket (stdout -> lines, stderr -> cap)."""

    def __init__(
        self,
        sandbox: DockerSandbox,
        container: Any,
        sock: Any,
        limits: Limits,
        labels: dict[str, str],
    ) -> None:
        self.sandbox = sandbox
        self.container = container
        self.labels = labels
        self.limits = limits
        self._io = sock  # keep the SocketIO/response alive
        self._sock: socket.socket = getattr(sock, "_sock", sock)
        self._sock.setblocking(False)
        self._lines = LineBuffer(limits.max_line_bytes)
        self._stderr = CappedText(limits.stderr_cap_bytes)
        self._frame = bytearray()  # undecoded multiplexed stream
        self._eof = False
        self._socket_closed = False
        self._reason: str | None = None
        self._killed_by_us = False
        self._close_lock = threading.Lock()
        self.closed = False
        #: warm-pool bots (``sandbox.pool.PooledBot``) say True: removed in the background
        self.pooled = False

    # -- talking -------------------------------------------------------------------------
    def send_line(self, line: str | bytes, timeout_s: float = 5.0) -> None:
        if self.closed or self._socket_closed:
            raise BotGone("closed")
        data = memoryview((line if isinstance(line, bytes) else line.encode("utf-8")) + b"\n")
        deadline = time.monotonic() + timeout_s
        while data:
            try:
                n = self._sock.send(data)
                data = data[n:]
                continue
            except BlockingIOError:
                pass
            except OSError:
                raise BotGone(self._gone_reason("closed its input")) from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotGone("does not read its input")
            select.select([], [self._sock], [], left)

    def _demux(self) -> None:
        buf = self._frame
        while len(buf) >= 8:
            size = int.from_bytes(buf[4:8], "big")
            if len(buf) < 8 + size:
                return
            kind, payload = buf[0], bytes(buf[8 : 8 + size])
            del buf[: 8 + size]
            if kind == 2:
                self._stderr.feed(payload)
            else:
                self._lines.feed(payload)

    def _pump(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for socket data and take it in. False if none came."""
        if self._eof or self._socket_closed:
            return False
        ready, _, _ = select.select([self._sock], [], [], max(0.0, timeout_s))
        if not ready:
            return False
        for _ in range(16):  # bounded: a flood must not starve the caller
            try:
                data = self._sock.recv(1 << 16)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self._eof = True
                break
            self._frame += data
            self._demux()
            if self._lines.has_line():
                break
        return True

    def read_line(self, timeout_s: float) -> str | None:
        deadline = time.monotonic() + max(0.0, timeout_s)
        while True:
            line = self._lines.pop()
            if line is not None:
                return line
            if self._eof or self._socket_closed:
                raise BotGone(self._gone_reason("closed its output"))
            left = deadline - time.monotonic()
            if not self._pump(left) and left <= 0:
                return None

    def stderr_text(self) -> str:
        with contextlib.suppress(Exception):
            self._pump(0)
        return self._stderr.text()

    # -- ending --------------------------------------------------------------------------
    def _inspect_exit(self, wait_s: float) -> str | None:
        """The container's exit, from the engine (waiting up to ``wait_s`` for it)."""
        return inspect_exit(self.container, self._stderr, wait_s)

    def _gone_reason(self, alive_reason: str) -> str:
        if self._reason is None:
            self._reason = self._inspect_exit(wait_s=1.0)
        return self._reason or alive_reason

    def exit_reason(self) -> str | None:
        if self._reason is not None:
            return self._reason
        if self.closed:
            return "killed: ended by the referee" if self._killed_by_us else "exited"
        if not self._eof:
            # Cheap check first: only ask the engine when the stream has ended.
            with contextlib.suppress(Exception):
                self._pump(0)
            if not self._eof:
                return None
        self._reason = self._inspect_exit(wait_s=1.0)
        return self._reason

    def _close_socket(self) -> None:
        if self._socket_closed:
            return
        self._socket_closed = True
        with contextlib.suppress(Exception):
            self._sock.close()
        with contextlib.suppress(Exception):
            self._io.close()

    def close(self, grace_s: float = 0.5) -> None:
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
        try:
            if grace_s > 0 and not self._eof and not self._socket_closed:
                with contextlib.suppress(OSError):
                    self._sock.shutdown(socket.SHUT_WR)  # stdin EOF: a polite bot exits
                deadline = time.monotonic() + grace_s
                while not self._eof and time.monotonic() < deadline:
                    with contextlib.suppress(Exception):
                        self._pump(deadline - time.monotonic())
            if self._eof and self._reason is None:
                self._reason = self._inspect_exit(wait_s=0.5)
            if self._reason is None:
                self._killed_by_us = True
                self._reason = "killed: ended by the referee"
            # Close the pipe before the kill: a kill with unread output can hang.
            self._close_socket()
            if not self.sandbox._remove(self.container):
                log.error("bot container %s left for the reaper", self.container.id)
        except Exception as e:  # close never raises
            log.error("closing bot container failed: %s", e)
        finally:
            with _LIVE_LOCK:
                _LIVE.discard(self)

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close(grace_s=0)


@atexit.register
def close_live_bots() -> None:
    """Close (and so remove) this process's live bot containers: at exit, and when a worker
    process shuts down (``sandbox.shutdown``). A worker that exits normally (or on SIGTERM via
    sys.exit) takes its containers along."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for bot in live:
        bot.close(grace_s=0)
