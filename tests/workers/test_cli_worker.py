"""``arena submit`` on the production path: the test process serves the site over HTTP
(pytest-django's live server on PostgreSQL), a real Celery worker on Redis checks the upload and
plays its qualification match, and the command line waits, looking at the version over HTTP,
until it has qualified."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from arena.cli import EXIT_OK, main
from arena.cli.site import Site
from tests.conftest import WorkerProcess, celery_on, missing_service
from tests.workers.test_ladder_worker import GOOD

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

WORKER_ENV = {"ARENA_SANDBOX": "process", "ARENA_ALLOW_UNSAFE_SANDBOX": "true"}


@pytest.fixture
def worker(request: pytest.FixtureRequest, settings: Any, tmp_path: Path) -> WorkerProcess:
    """The site's settings and the worker's environment agree: one database, one media folder."""
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.CELERY_TASK_ALWAYS_EAGER = False
    request.node.worker_env = {
        "DATABASE_URL": f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}",
        "ARENA_DATA_DIR": str(tmp_path),
        **WORKER_ENV,
    }
    return request.getfixturevalue("celery_worker_process")


def test_submit_waits_for_the_worker_to_qualify_the_version(
    redis_url: str,
    worker: WorkerProcess,
    live_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    from bots.services import ensure_builtin_bots
    from catalog.services import sync_games

    ensure_builtin_bots(next(g for g in sync_games() if g.slug == "trnd"))
    get_user_model().objects.create_user("alice", password="pw-alice-Zx81!")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("pw-alice-Zx81!\n"))
    (tmp_path / "main.py").write_bytes(GOOD)

    # Every status the command line sees: the upload's answer, then each look while it waits.
    seen: list[str] = []
    real_get, real_call = Site.get, Site.call

    def watching_get(self: Site, path: str, query: Any = None) -> Any:
        answer = real_get(self, path, query)
        if path.endswith("/versions/"):
            seen.append(answer[0]["status"])
        return answer

    def watching_call(self: Site, method: str, path: str, **kwargs: Any) -> Any:
        answer = real_call(self, method, path, **kwargs)
        if method == "POST" and path.endswith("/versions/"):
            seen.append(answer["status"])
        return answer

    monkeypatch.setattr(Site, "get", watching_get)
    monkeypatch.setattr(Site, "call", watching_call)
    with celery_on(redis_url):
        assert main(["login", live_server.url, "-u", "alice", "--password-stdin"]) == EXIT_OK
        code = main(
            ["submit", "steady", str(tmp_path / "main.py"), "--game", "trnd", "--timeout", "240"]
        )
    out, err = capsys.readouterr()
    assert code == EXIT_OK, out + err + worker.stderr_tail()
    assert "uploaded steady v1 (trnd, python" in out
    assert "steady v1 qualified" in out
    # It waited: the upload answered a pending version (the web request checks nothing), the
    # worker qualified it, and the command looked again until it saw that, however fast the
    # worker was.
    assert seen[0] in {"checking", "uploaded", "qualifying"}, seen
    assert seen[-1] == "active" and len(seen) >= 2, seen
    assert set(seen[:-1]) <= {"checking", "uploaded", "qualifying"}, seen
