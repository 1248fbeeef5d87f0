"""The heavy groups of tests are selected by marker (``-m worker``, ``-m browser``, ``-m
docker``, ``-m slow``; CONTRIBUTING.md, "Groups of tests"): a test that starts real worker
processes or a chromium and lacks its marker would run in ``-m "not worker and not browser"``,
the fast part. What a test starts is read from its source and its fixtures'
(tests/house/collected_marks.py) over a collection of the whole suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from typing import Any

import pytest

from tests.conftest import REPO
from tests.house.collected_marks import STARTS

HEAVY = {"worker", "browser", "docker", "slow"}


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Every test of the suite with its markers and what it starts (a collection, no run)."""
    out = tmp_path_factory.mktemp("marks") / "collected.json"
    plugin = ("-p", "no:cacheprovider", "-p", "tests.house.collected_marks")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *plugin, "tests"],
        cwd=REPO,
        env={**os.environ, "ARENA_COLLECTED_MARKS": str(out)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    rows: list[dict[str, Any]] = json.loads(out.read_text())
    return rows


def test_every_test_that_starts_a_worker_or_a_chromium_carries_its_marker(
    collected: list[dict[str, Any]],
) -> None:
    unmarked = [
        f"{row['id']}: starts a {what}, has no @pytest.mark.{what}"
        for row in collected
        for what in row["starts"]
        if what not in row["marks"]
    ]
    assert not unmarked, "\n".join(unmarked)


@pytest.mark.parametrize(
    ("module", "what"),
    [
        ("tests/workers/test_platform_worker.py", "worker"),  # tests/conftest.py's worker
        ("tests/workers/test_match_task.py", "worker"),  # ... asked for by name
        ("tests/workers/test_people_queue.py", "worker"),  # its own prefork workers
        ("tests/workers/test_ladder_worker.py", "worker"),  # with beat
        ("tests/resilience/test_worker_killed.py", "worker"),  # the resilience harness's
        ("tests/workers/test_people_embedded.py", "worker"),  # the embedded workers
        ("tests/workers/test_serve_command.py", "worker"),  # manage.py serve
        ("tests/workers/test_ladder_embedded.py", "worker"),  # manage.py demo --serve
        ("tests/sandbox/test_pool_worker_shutdown.py", "worker"),  # its own worker, inline
        ("tests/browser/test_browser_pages.py", "browser"),
        ("tests/security/test_browser_csp.py", "browser"),
    ],
)
def test_each_way_of_starting_one_is_seen(
    collected: list[dict[str, Any]], module: str, what: str
) -> None:
    """The patterns of STARTS still see every way the suite starts a worker or a chromium (a
    pattern gone stale would let an unmarked test through)."""
    assert what in STARTS
    rows = [row for row in collected if row["id"].startswith(f"{module}::")]
    assert rows, f"no test collected in {module}"
    assert any(what in row["starts"] for row in rows), f"{module}: no test seen starting a {what}"


def test_the_fast_part_leaves_out_every_test_that_starts_one(
    collected: list[dict[str, Any]],
) -> None:
    """``-m "not worker and not browser"`` (the marks, as pytest reads them) keeps no test
    that starts a worker or a chromium, and the heavy markers are registered."""
    fast = [row for row in collected if not {"worker", "browser"} & set(row["marks"])]
    assert fast and not [row["id"] for row in fast if row["starts"]]
    registered = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]
    names = {line.split(":")[0] for line in registered["ini_options"]["markers"]}
    assert names >= HEAVY, HEAVY - names
