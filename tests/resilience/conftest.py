"""The harness of the fault-injection tests: each test starts its own redis-server (so it can
kill and restart it without touching other tests) and its own Celery worker processes, against
the test's PostgreSQL database, and checks afterwards that every match was recorded exactly
once and that the ratings are what a serial replay of the recorded matches gives.

Everything is bounded in time: waits poll the database and give up with the workers' logs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, celery_on, missing_service, platform_env

#: A program bot that thinks for a while on every move: a match lasts seconds, so a worker can
#: be killed (or the broker restarted) while it is being played.
SLOW_BOT = """
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "start":
        print(json.dumps({"type": "ready", "name": "slow"}), flush=True)
    elif msg.get("type") == "act":
        time.sleep(DELAY)
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    elif msg.get("type") == "end":
        break
"""

WAIT_S = float(
    os.environ.get("ARENA_TEST_WAIT_S", "240")
)  # the longest any wait here may take before the test fails with the logs


def slow_bot_source(delay: float) -> bytes:
    return SLOW_BOT.replace("DELAY", repr(delay)).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(
    what: str,
    check: Callable[[], Any],
    timeout: float = WAIT_S,
    every: float = 0.2,
    logs: Callable[[], str] | None = None,
) -> Any:
    """Poll ``check`` until it returns something truthy; fail with ``what`` (and logs)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(
        f"timed out after {timeout:.0f}s waiting for {what}\n" + (logs() if logs else "")
    )


# ------------------------------------------------------------------------------------ Redis


@dataclass
class RedisServer:
    """A redis-server of one test's own, on a free port, restartable on the same port and
    folder (with ``appendonly`` its queue survives a crash; without, a restart empties it)."""

    folder: Path
    appendonly: bool
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.folder),
            "--save",
            "",
            "--daemonize",
            "no",
            "--appendonly",
            "yes" if self.appendonly else "no",
        ]
        if self.appendonly:
            cmd += ["--appendfsync", "always"]  # every write on disk before the reply
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(f"redis-server on port {self.port}", self.answers, timeout=30, every=0.1)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=1).ping())
        except Exception:
            return False

    def crash(self) -> None:
        """SIGKILL: what a machine failure does (no shutdown save)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def queued_messages(self) -> int:
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=2)
        return int(client.llen("celery")) + int(client.hlen("unacked"))


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    if not _which("redis-server"):
        missing_service("redis-server is not installed")
    started: list[RedisServer] = []

    def start(appendonly: bool = False) -> RedisServer:
        folder = tmp_path / f"redis-{len(started)}"
        folder.mkdir()
        server = RedisServer(folder=folder, appendonly=appendonly)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.crash()


def _which(name: str) -> bool:
    from shutil import which

    return which(name) is not None


# ---------------------------------------------------------------------------------- workers


@dataclass
class Worker:
    """One ``celery -A meeple worker`` process (its own session, so its whole group can be
    killed), logging to a file."""

    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def logs(self) -> str:
        try:
            return f"--- {self.name} ---\n" + self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def pool_children(self) -> list[int]:
        """The prefork pool's processes (direct children of the main process)."""
        out = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                fields = stat[stat.rindex(")") + 2 :].split()
                if int(fields[1]) == self.pid and fields[0] != "Z":
                    out.append(int(entry.name))
        return out

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the main process only (its pool child, if any, is left to its fate)."""
        if self.proc.poll() is None:
            os.kill(self.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=20)
        # Everything it started (pool children, bots), also after a SIGKILL.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait(timeout=10)


def database_url(**query: str) -> str:
    """The URL of the test database, for worker processes (PostgreSQL only)."""
    from urllib.parse import quote, urlencode

    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("the resilience tests need DATABASE_URL to name a PostgreSQL server")
    url = (
        f"postgres://{quote(s['USER'])}:{quote(s['PASSWORD'])}@{s['HOST']}:{s['PORT']}/{s['NAME']}"
    )
    return f"{url}?{urlencode(query)}" if query else url


def proxied_database_url(proxy: DatabaseProxy, **query: str) -> str:
    """``database_url`` through ``proxy`` instead of straight to the server."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(database_url(**query))
    netloc = parts.netloc.rsplit("@", 1)
    netloc[-1] = f"127.0.0.1:{proxy.port}"
    return urlunsplit(parts._replace(netloc="@".join(netloc)))


class DatabaseProxy:
    """A TCP relay from a free port to the test's PostgreSQL server that a test can ``cut``
    (connections dropped and refused: the database unreachable), ``restore``, ``silence``
    (bytes held both ways, sockets open: a network partition) and ``speak`` again."""

    def __init__(self) -> None:
        import threading

        from django.db import connection

        if connection.vendor != "postgresql":
            missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
        self.target = (connection.settings_dict["HOST"], int(connection.settings_dict["PORT"]))
        self.port = free_port()
        self._quiet = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None

    def start(self) -> None:
        import threading

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(32)
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        import threading

        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                if listener is not self._listener:  # cut meanwhile: nothing gets through
                    client.close()
                    server.close()
                    return
                self._sockets += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                while self._quiet.is_set():
                    time.sleep(0.05)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, []
        if listener is not None:
            # shutdown first: a close alone leaves the thread blocked in accept() listening
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        self.start()

    def silence(self) -> None:
        self._quiet.set()

    def speak(self) -> None:
        self._quiet.clear()


@pytest.fixture
def db_proxy() -> Iterator[DatabaseProxy]:
    proxy = DatabaseProxy()
    proxy.start()
    yield proxy
    proxy.speak()
    proxy.cut()


def sessions_waiting_on_locks() -> int:
    """Sessions of the test database waiting for a lock (PostgreSQL's view of them)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cur.fetchone()[0])


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """``start(broker_url, name=..., pool="solo"|"prefork", host=..., **env)``: a worker with a
    data folder, media folder and code cache of its own (nothing shared but the database, the
    broker and the storage), waited for until it is ready."""
    from django.conf import settings

    started: list[Worker] = []

    def start(
        broker_url: str, *, name: str = "", pool: str = "solo", host: str = "%h", **env: str
    ) -> Worker:
        name = name or f"w{len(started) + 1}"
        home = tmp_path / f"worker-{name}-{uuid.uuid4().hex[:6]}"
        (home / "cache").mkdir(parents=True)
        worker_env = platform_env(
            DATABASE_URL=database_url(),
            CELERY_BROKER_URL=broker_url,
            CELERY_RESULT_BACKEND="",
            ARENA_DATA_DIR=str(home),
            ARENA_CODE_CACHE=str(home / "cache"),
            ARENA_SANDBOX="process",
            # The web's uploads, as a folder every worker mounts; tests of code that travels
            # replace it with object storage (ARENA_S3_*).
            ARENA_MEDIA_ROOT=str(settings.MEDIA_ROOT),
            PYTHONUNBUFFERED="1",
        )
        worker_env.update(env)
        pool_args = ["--pool=solo"] if pool == "solo" else ["--pool=prefork", "-c", "1"]
        log = home / "worker.log"
        with open(log, "wb") as fh:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "meeple",
                    "worker",
                    *pool_args,
                    "--loglevel=INFO",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"{name}@{host}",
                ],
                cwd=REPO,
                env=worker_env,
                stdout=fh,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = Worker(name=name, proc=proc, log=log)
        started.append(worker)

        def ready() -> bool:
            if proc.poll() is not None:
                raise AssertionError(f"worker {name} exited: {worker.logs()}")
            return " ready." in log.read_text(errors="replace")

        wait_for(f"worker {name} to be ready", ready, timeout=90, logs=worker.logs)
        return worker

    yield start
    for worker in started:
        worker.stop()


# ------------------------------------------------------------------------------ the platform


@dataclass
class Arena:
    """The game, bots and helpers one test needs."""

    game: Any
    builtins: list[Any]  # BotVersion of built-in bots
    owner: Any

    def upload(self, name: str, source: bytes) -> Any:
        from bots.services import create_bot, upload_version

        bot = create_bot(owner=self.owner, game=self.game, name=name)
        return upload_version(bot=bot, filename="main.py", data=source)

    def match(self, versions: list[Any], seed: int = 1) -> Any:
        from matches.services import create_match

        return create_match(game=self.game, versions=versions, seed=seed)


@pytest.fixture
def arena(db: Any) -> Arena:
    from bots.services import ensure_builtin_bots
    from catalog.services import sync_games
    from django.contrib.auth import get_user_model

    game = {g.slug: g for g in sync_games()}["tri-area"]
    builtins = [b.latest_version() for b in ensure_builtin_bots(game)]
    # Staff uploads are the operator's own code: the process sandbox may run them.
    owner = get_user_model().objects.create_user("organiser", password="x", is_staff=True)
    return Arena(game=game, builtins=builtins, owner=owner)


def _configured() -> None:
    # Configure the Celery app from Django's settings before celery_on points it at a broker,
    # so that the configuration is not loaded (and the broker replaced) in the middle.
    import matches.tasks  # noqa: F401
    import meeple.celery  # noqa: F401

    from arena.celery_app import app

    assert app.conf.broker_url


def dispatch(broker_url: str, *matches: Any) -> None:
    from matches.services import dispatch_match

    _configured()
    with celery_on(broker_url):
        for m in matches:
            dispatch_match(m)


def send_task(broker_url: str, match_id: int, attempt: int) -> str:
    """A delivery of ``play_match`` as the platform sends it (a duplicate, or a stale one);
    returns the task id (the worker's log names it when it is done)."""
    from matches.tasks import play_match

    _configured()
    with celery_on(broker_url):
        return str(play_match.apply_async(args=[match_id, attempt]).id)


def done_tasks(*workers: Worker) -> dict[str, str]:
    """Task id -> what the task returned, for every task the workers' logs say succeeded."""
    import re

    found: dict[str, str] = {}
    for w in workers:
        for m in re.finditer(
            r"Task matches\.play_match\[([0-9a-f-]+)\] succeeded in [^:]+: (.*)",
            w.log.read_text(errors="replace"),
        ):
            found[m.group(1)] = m.group(2).strip()
    return found


def statuses(ids: list[int]) -> dict[int, str]:
    from matches.models import Match

    return dict(Match.objects.filter(pk__in=ids).values_list("pk", "status"))


def wait_status(
    ids: list[int], wanted: set[str], *workers: Worker, timeout: float = WAIT_S
) -> dict[int, str]:
    def check() -> dict[int, str] | None:
        now = statuses(ids)
        return now if all(s in wanted for s in now.values()) else None

    def logs() -> str:
        return f"statuses: {statuses(ids)}\n" + "\n".join(w.logs() for w in workers)

    return wait_for(f"matches {ids} to be {sorted(wanted)}", check, timeout=timeout, logs=logs)


def sweep_past_deadlines(broker_url: str) -> dict[str, int]:
    """Run the sweeper (sending through ``broker_url``) as if every deadline and the queue's
    patience had passed."""
    from django.conf import settings
    from django.utils import timezone
    from matches.models import Match
    from matches.sweeper import sweep_matches

    latest = max(
        [m for m in Match.objects.values_list("deadline_at", flat=True) if m is not None],
        default=timezone.now(),
    )
    now = max(latest, timezone.now()) + timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S + 1)
    _configured()
    with celery_on(broker_url):
        return sweep_matches(now=now)


# --------------------------------------------------------------------------- the invariants


def assert_recorded_once(ids: list[int]) -> None:
    """Every match is finished or error; a finished rated match has exactly one rating change
    per seat, an error match none; nothing is queued/running/recording."""
    from matches.models import Match, MatchStatus
    from ratings.models import RatingChange

    for match in Match.objects.filter(pk__in=ids).prefetch_related("seats"):
        assert match.status in (MatchStatus.FINISHED, MatchStatus.ERROR), (match.pk, match.status)
        changes = RatingChange.objects.filter(match=match).count()
        if match.status == MatchStatus.FINISHED:
            seats = list(match.seats.all())
            assert all(s.rank is not None for s in seats), match.pk
            assert changes == len(seats), (match.pk, changes)
            assert match.deadline_at is None
        else:
            assert changes == 0, (match.pk, changes)
    assert not Match.objects.filter(
        status__in=[MatchStatus.QUEUED, MatchStatus.RUNNING, MatchStatus.RECORDING]
    ).exists()


def assert_ratings_serial(game: Any) -> int:
    """The stored ratings equal a serial replay of the finished rated matches with the arena's
    own maths, in the order their rating changes were written; every bot's count of rated
    matches equals the matches it played. Returns how many matches moved ratings."""
    from matches.models import Match, MatchStatus
    from ratings.models import Rating, RatingChange

    from arena.ratings import DEFAULT_ELO, Skill, elo_match, openskill_match

    order = list(
        RatingChange.objects.filter(game=game).order_by("id").values_list("match_id", flat=True)
    )
    match_ids = list(dict.fromkeys(order))
    finished = set(
        Match.objects.filter(game=game, status=MatchStatus.FINISHED, rated=True).values_list(
            "pk", flat=True
        )
    )
    assert set(match_ids) <= finished, "a rating change of a match that is not finished"
    elo: dict[int, float] = {}
    skill: dict[int, Skill] = {}
    played: dict[int, int] = {}
    for mid in match_ids:
        seats = list(Match.objects.get(pk=mid).seats.select_related("bot_version").order_by("seat"))
        bots = [s.bot_version.bot_id for s in seats]
        ranks = [int(s.rank or 0) for s in seats]
        new_elo = elo_match([elo.get(b, DEFAULT_ELO) for b in bots], ranks)
        new_skill = openskill_match([skill.get(b, Skill()) for b in bots], ranks)
        for b, e, s in zip(bots, new_elo, new_skill, strict=True):
            elo[b], skill[b] = e, s
            played[b] = played.get(b, 0) + 1
    stored = {r.bot_id: r for r in Rating.objects.filter(game=game)}
    for bot, count in played.items():
        r = stored[bot]
        assert r.matches_played == count, (bot, r.matches_played, count)
        assert r.elo == pytest.approx(elo[bot], abs=1e-9)
        assert r.mu == pytest.approx(skill[bot].mu, abs=1e-9)
        assert r.sigma == pytest.approx(skill[bot].sigma, abs=1e-9)
    for bot, r in stored.items():
        assert bot in played or r.matches_played == 0, (bot, r.matches_played)
    return len(match_ids)
