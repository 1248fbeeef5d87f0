"""Talking to the Docker engine about bot containers: connecting, checking the runtime image,
starting, listing and removing containers, and reading why one ended.

Every call goes through a client with a timeout; removal is always through the engine's API
(``remove(force=True)``), retried once, and otherwise left to the reaper (logged), never raised.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from typing import Any

from sandbox.base import SandboxError
from sandbox.docker_spec import LABEL
from sandbox.lines import CappedText

log = logging.getLogger("sandbox.docker")

#: what builds the runtime image from this machine's files
BUILD_COMMAND = "deploy/build-runtime-image.sh"


def engine_hint() -> str:
    """What to do when no engine answers."""
    host = os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    return (
        f"no Docker engine answers at {host}: start it (e.g. 'dockerd > /tmp/dockerd.log 2>&1 &' "
        "or 'systemctl start docker'), set DOCKER_HOST, or use ARENA_SANDBOX=process for "
        "your own bots"
    )


def image_missing(image: str) -> SandboxError:
    return SandboxError(f"the bot runtime image {image} is not built: run {BUILD_COMMAND}")


#: The Docker SDK is imported on first use (naming a backend never pulls it in); seats start in
#: threads, and two threads importing it at once saw a partly initialised package.
_IMPORT_LOCK = threading.Lock()


def connect(timeout_s: float) -> Any:
    """A Docker client from the environment (``DOCKER_HOST``...). Raises SandboxError."""
    try:
        with _IMPORT_LOCK:
            import docker
    except ImportError as e:  # pragma: no cover - a dependency of the project
        raise SandboxError(f"the docker package is missing ({e})") from e
    try:
        return docker.from_env(timeout=int(timeout_s))
    except docker.errors.DockerException as e:
        raise SandboxError(f"{engine_hint()} ({e})") from None


def check_image(client: Any, image: str) -> None:
    """Raise :class:`SandboxError` saying what to run unless the engine answers and ``image``
    exists."""
    import docker

    try:
        client.ping()
    except Exception as e:
        raise SandboxError(f"{engine_hint()} ({type(e).__name__})") from None
    try:
        client.images.get(image)
    except docker.errors.ImageNotFound:
        raise image_missing(image) from None
    except Exception as e:
        raise SandboxError(f"cannot inspect image {image}: {e}") from None


def launch(client: Any, image: str, kwargs: dict[str, Any], *, attach: bool) -> tuple[Any, Any]:
    """Create a container, attach to it (unless ``attach`` is False: the pool talks over
    FIFOs), start it: ``(container, attach socket or None)``. Raises SandboxError, leaving no
    container behind."""
    import docker

    container = None
    sock = None
    try:
        container = client.containers.create(image, **kwargs)
        if attach:
            # Attach before start so that no early output is lost.
            sock = container.attach_socket(
                params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
        container.start()
    except docker.errors.ImageNotFound:
        remove(container)
        raise image_missing(image) from None
    except docker.errors.APIError as e:
        remove(container)
        raise SandboxError(f"the Docker engine refused to start the bot: {e}") from None
    except Exception as e:  # connection refused, timeouts
        remove(container)
        raise SandboxError(f"{engine_hint()} ({type(e).__name__}: {e})") from None
    return container, sock


def remove(container: Any) -> bool:
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
            log.warning("removing container %s failed (%s), attempt %d", container.id, e, attempt)
        except Exception as e:  # timeout: the reaper will find it by its labels
            log.warning("removing container %s failed (%s), attempt %d", container.id, e, attempt)
    return False


def list_bot_containers(client: Any, labels: dict[str, str] | None) -> list[Any]:
    """Every bot container (running or not) carrying ``labels`` (all if None)."""
    filters = [f"{LABEL}.sandbox=1"]
    filters += [f"{LABEL}.{k}={v}" for k, v in (labels or {}).items()]
    try:
        # Other workers remove containers all the time: one removed between the listing and
        # its inspection is skipped (else the whole listing failed, and a reap found nothing).
        return client.containers.list(all=True, filters={"label": filters}, ignore_removed=True)
    except Exception as e:
        log.warning("cannot list bot containers: %s", e)
        return []


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
            return exit_reason_of(st, stderr)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def exit_reason_of(state: dict[str, Any], stderr: CappedText) -> str:
    """A bot's end from the engine's ``State`` (``ExitCode``, 128 + the signal for a kill, and
    ``OOMKilled``): ``exited 3``, ``killed: memory``, ``killed: SIGSEGV``... A warm container's
    supervisor reports its bots in the same terms."""
    code = int(state.get("ExitCode", 0))
    if state.get("OOMKilled"):
        return "killed: memory"
    if code == 128 + signal.SIGXCPU:
        return "killed: cpu time"
    if code > 128:
        try:
            name = signal.Signals(code - 128).name
        except ValueError:
            name = str(code - 128)
        return f"killed: {name}"
    if code != 0 and stderr.has(b"MemoryError"):
        return f"exited {code} (out of memory)"
    return f"exited {code}"
