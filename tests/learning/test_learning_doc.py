"""docs/learning.md's training example runs as written, and the bot it exports plays a match
through the referee, choosing exactly what the trained policy chooses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from arena.learning import encode, export_bot
from arena.learning.policy_bot import choose, features, new_policy
from arena.referee import run_match
from arena.replay import verify_replay
from games import registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "learning.md"


def _training_block() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return next(b for b in blocks if "export_bot(best" in b)


def test_doc_example_trains_and_exports_a_bot_the_referee_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(compile(_training_block(), str(DOC), "exec"), scope)
    policy = json.loads((tmp_path / "my-tri-area-bot" / "policy.json").read_text())
    assert policy == scope["best"]
    assert any(w != 0.0 for row in policy["weights"] for w in row), "search never moved"

    outcome = run_match(
        "tri-area",
        [str(tmp_path / "my-tri-area-bot"), "builtin:random"],
        seed=3,
        sandbox="process",
    )
    assert outcome.ok and outcome.seats[0].status == "ok", outcome.seats[0].faults
    assert verify_replay(outcome.replay) == []
    # every decision of seat 0 is the trained policy's choice
    state = registry.get_game("tri-area").new_game(2, 3)
    mine = 0
    for d in outcome.replay["decisions"]:
        if d["seat"] == 0:
            assert d["index"] == choose(policy, state.observation(0), state.legal_actions())
            mine += 1
        state.apply(d["action"])
    assert mine > 10


def test_numpy_encoding_is_the_bot_s_encoding() -> None:
    state = registry.get_game("manhattan-traffiq").new_game(3, 2)
    obs = state.observation(0)
    assert np.array_equal(encode(obs, 256), np.asarray(features(obs, 256), dtype=np.float32))


def test_export_refuses_malformed_policies_and_overwrites(tmp_path: Path) -> None:
    from arena.learning import LearningError

    with pytest.raises(LearningError, match="weights"):
        export_bot({"game": "trnd", "obs_dim": 4, "action_dim": 2, "weights": [[0.0]]}, tmp_path)
    export_bot(new_policy("trnd", 4, 2), tmp_path)
    with pytest.raises(LearningError, match="exists"):
        export_bot(new_policy("trnd", 4, 2), tmp_path)
