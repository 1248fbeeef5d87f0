"""The one-task-per-match Celery path: in-process by default, and through Redis to a worker
process that runs the referee (CI always takes the second path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import WorkerProcess, celery_on

FIRST_LEGAL_BOT = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready", "name": "first-legal"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    elif msg["type"] == "end":
        break
"""


def test_match_task_in_process_with_builtin_bots() -> None:
    from arena.tasks import run_match

    spec = {"game": "tri-area", "seats": ["builtin:random"] * 4, "seed": 11, "match_id": "t-eager"}
    out = run_match.apply(args=(spec,)).get()
    assert out["status"] == "finished", out["error"]
    assert out["match_id"] == "t-eager"
    assert sorted(s["rank"] for s in out["seats"])[0] == 1
    assert out["replay"]["seed"] == 11


def test_match_task_refuses_bad_input_as_an_error_outcome() -> None:
    from arena.tasks import run_match

    out = run_match.apply(args=({"game": "chess", "seats": ["builtin:random"]},)).get()
    assert out["status"] == "error"
    assert "unknown game 'chess'" in out["error"]
    # A spec that breaks the contract is refused with the field named, never a crash.
    out = run_match.apply(args=({"game": "trnd", "bots": ["builtin:random"]},)).get()
    assert out["status"] == "error" and "unknown keys ['bots']" in out["error"]


@pytest.mark.redis
def test_match_task_through_redis_runs_a_program_bot_on_a_worker(
    tmp_path: Path, redis_url: str, request: pytest.FixtureRequest
) -> None:
    from arena.tasks import run_match

    # The worker chooses how bots run (its own ARENA_SANDBOX), never the sender.
    request.node.worker_env = {"ARENA_SANDBOX": "process"}
    celery_worker_process: WorkerProcess = request.getfixturevalue("celery_worker_process")

    bot = tmp_path / "first_legal.py"
    bot.write_text(FIRST_LEGAL_BOT)
    spec = {
        "game": "trnd",
        "seats": [str(bot), "builtin:random", "builtin:random"],
        "seed": 5,
        "options": {"max_rounds": 2},
        "time": {"start_ms": 10000, "move_ms": 2000, "bank_ms": 10000},
    }
    with celery_on(redis_url):
        result = run_match.apply_async(args=(spec,))
        try:
            out = result.get(timeout=180)
        except Exception:
            raise AssertionError(f"worker failed: {celery_worker_process.stderr_tail()}") from None
    assert out["status"] == "finished", out["error"]
    assert out["seats"][0]["status"] == "ok", out["seats"][0]
    assert out["seats"][0]["faults"] == []
    assert len(out["replay"]["decisions"]) > 0
