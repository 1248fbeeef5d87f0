"""Turn a trained linear policy into an uploadable bot folder (docs/learning.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from arena.learning import policy_bot
from arena.learning.spec import LearningError


def export_bot(policy: dict[str, Any], folder: str | Path, *, force: bool = False) -> Path:
    """Write ``main.py`` (the stdlib-only :mod:`arena.learning.policy_bot`) and
    ``policy.json`` into ``folder``; upload the folder (zipped) or run it with ``arena play``."""
    for key in ("game", "obs_dim", "action_dim", "weights"):
        if key not in policy:
            raise LearningError(f"policy has no {key!r}: make one with policy_bot.new_policy")
    rows = policy["weights"]
    if len(rows) != policy["action_dim"] or any(len(r) != policy["obs_dim"] for r in rows):
        raise LearningError("policy weights must be action_dim rows of obs_dim numbers")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("main.py", "policy.json"):
        if (out / name).exists() and not force:
            raise LearningError(f"{out / name} exists (pass force=True to overwrite)")
    shutil.copyfile(policy_bot.__file__, out / "main.py")
    (out / "policy.json").write_text(json.dumps(policy, separators=(",", ":")), encoding="utf-8")
    return out
