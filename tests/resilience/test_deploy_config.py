"""The deployment as written: the compose file keeps to the design of deploy/SCALING.md (workers
share no volume, only workers choose a sandbox, one beat on the database schedule, health
conditions), and the storage settings read from the environment give django-storages' S3
backend with what a deployment sets."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
import yaml

from tests.conftest import REPO, platform_env

COMPOSE = REPO / "deploy" / "docker-compose.yml"


class StrictLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice in one mapping, as Docker Compose does
    (PyYAML's own silently keeps the last one)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        keys = [k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)]
        twice = sorted({k for k in keys if keys.count(k) > 1 and k != "<<"})
        if twice:
            raise yaml.constructor.ConstructorError(
                None, None, f"keys given twice: {twice}", node.start_mark
            )
        return super().construct_mapping(node, deep)


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    return dict(yaml.load(COMPOSE.read_text(), Loader=StrictLoader)["services"])


def test_the_strict_loader_refuses_a_service_given_twice() -> None:
    with pytest.raises(yaml.constructor.ConstructorError, match="beat"):
        yaml.load("services:\n  beat: {}\n  beat: {}\n", Loader=StrictLoader)


def _app_services(services: dict[str, Any]) -> dict[str, Any]:
    return {n: s for n, s in services.items() if s.get("image") == "meeple-arena/app:latest"}


def test_the_workers_share_no_volume(services: dict[str, Any]) -> None:
    workers = {n: s for n, s in services.items() if n.startswith("worker-")}
    assert len(workers) == 4  # two for bots' matches, one for people's, one for builds
    mounts = {
        n: [v for v in s.get("volumes", []) if "docker.sock" not in v] for n, s in workers.items()
    }
    named = set(yaml.safe_load(COMPOSE.read_text()).get("volumes") or {})
    for name, volumes in mounts.items():
        for v in volumes:
            assert v.split(":")[0] not in named, (name, v)  # no named (shared) volume
    sources = [v.split(":")[0] for vs in mounts.values() for v in vs]
    assert len(sources) == len(set(sources)), sources  # each worker its own bot folder
    for name, s in workers.items():
        env = s["environment"]
        assert env["ARENA_SANDBOX"] == "docker"
        assert env["ARENA_S3_BUCKET"] and env["ARENA_BOT_DIR"].endswith(name)
        assert "celery -A meeple worker" in " ".join(s["command"])


def test_peoples_matches_have_a_worker_of_their_own(services: dict[str, Any]) -> None:
    """People's games wait for a person for hours: only their own worker takes them, and it
    takes nothing else (deploy/SCALING.md, "People's matches")."""
    commands = {n: " ".join(s["command"]) for n, s in services.items() if n.startswith("worker-")}
    people = [n for n, c in commands.items() if " -Q people " in c]
    assert people == ["worker-people"], commands
    others = [n for n in commands if n not in (*people, "worker-builds")]
    assert all(" -Q " not in commands[n] for n in others), commands


def test_checks_and_builds_have_a_worker_of_their_own(services: dict[str, Any]) -> None:
    """Uploads' checks and builds run the uploader's code: only their own worker takes them,
    and it takes nothing else (deploy/SCALING.md, "Builds"); the match workers take only the
    default queue."""
    commands = {n: " ".join(s["command"]) for n, s in services.items() if n.startswith("worker-")}
    builds = [n for n, c in commands.items() if " -Q builds " in c]
    assert builds == ["worker-builds"], commands
    matches = [n for n in commands if n not in ("worker-people", "worker-builds")]
    assert matches and all(" -Q " not in commands[n] for n in matches), commands


def test_only_workers_choose_a_sandbox(services: dict[str, Any]) -> None:
    for name, s in _app_services(services).items():
        if not name.startswith("worker-"):
            assert "ARENA_SANDBOX" not in (s.get("environment") or {}), name
            assert not any("docker.sock" in v for v in s.get("volumes", [])) or name == "reaper"


def test_one_beat_on_the_database_schedule(services: dict[str, Any]) -> None:
    beats = [s for s in services.values() if "beat" in " ".join(map(str, s.get("command", [])))]
    assert len(beats) == 1
    assert "django_celery_beat.schedulers:DatabaseScheduler" in beats[0]["command"]


def test_health_conditions(services: dict[str, Any]) -> None:
    for name in ("postgres", "redis", "minio", "web"):
        assert services[name]["healthcheck"]["test"], name
    for name, s in _app_services(services).items():
        deps = s["depends_on"]
        assert deps["postgres"]["condition"] == "service_healthy", name
        assert deps["redis"]["condition"] == "service_healthy", name
        if name != "migrate":
            assert deps["migrate"]["condition"] == "service_completed_successfully", name


def test_the_web_trusts_its_proxy_and_only_its_proxy_reaches_it(services: dict[str, Any]) -> None:
    """Compose puts the site behind a TLS proxy (it trusts X-Forwarded-Proto): clients are
    then counted by the entry that proxy appends (NUM_PROXIES=1; with 0 every client shared
    the proxy's log-in and API limits, and one could lock all others out), and gunicorn's port
    is published on the loopback only, so no client can write that entry itself
    (deploy/SECURITY.md, "Client addresses")."""
    web = services["web"]
    assert web["environment"]["SECURE_PROXY_SSL_HEADER"]
    assert web["environment"]["NUM_PROXIES"] == "${NUM_PROXIES:-1}"
    assert all(str(p).startswith("127.0.0.1:") for p in web["ports"]), web["ports"]


def test_s3_storage_from_the_environment() -> None:
    """A fresh process with the variables compose sets: Django's default storage is
    django-storages' S3 backend, private, pointed at the endpoint."""
    code = (
        "import django, json; django.setup()\n"
        "from django.core.files.storage import storages\n"
        "s = storages['default']\n"
        "print(json.dumps([type(s).__name__, s.bucket_name, s.endpoint_url, s.default_acl,"
        " s.file_overwrite, s.location]))"
    )
    env = platform_env(
        DJANGO_SETTINGS_MODULE="meeple.settings",
        ARENA_S3_BUCKET="bots",
        ARENA_S3_ENDPOINT_URL="http://minio:9000",
        ARENA_S3_ACCESS_KEY_ID="k",
        ARENA_S3_SECRET_ACCESS_KEY="s",
        ARENA_S3_PREFIX="arena",
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    cls, bucket, endpoint, acl, overwrite, location = json.loads(
        out.stdout.strip().splitlines()[-1]
    )
    assert (cls, bucket, endpoint, acl, overwrite, location) == (
        "S3Storage",
        "bots",
        "http://minio:9000",
        None,
        False,
        "arena",
    )
