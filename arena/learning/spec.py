"""Per-game facts the learning adapters need, and the generic JSON-to-array encoding.

Every registered game declares the size of its fixed action space in its own registration
(``max_legal`` of its ``games.entry.GameEntry``: the legal-action list is padded to it and
masked); :func:`spec_for` adds the sizes of the encoded arrays.
Observations are encoded generically by *feature hashing*: each leaf of the JSON observation
adds to one slot of a fixed-length vector chosen by a stable hash of its path (and, for text
and booleans, of its value), so any observation of any game maps to the same shape. Each legal
action is hashed the same way into a short row, so a policy can tell what index ``i`` means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.learning.policy_bot import BOUND, features
from games import registry

__all__ = ["BOUND", "LearningError", "LearningSpec", "encode", "spec_for"]


@dataclass(frozen=True)
class LearningSpec:
    """``max_legal``: an upper bound on the legal-action count of any decision of the game
    (an adapter raises a clear error if the engine ever exceeds it). ``obs_dim``: length of
    the hashed observation; ``action_dim``: length of each legal action's hashed row."""

    max_legal: int
    obs_dim: int = 256
    action_dim: int = 16

    @property
    def size(self) -> int:
        """Length of the flat ``observation`` array: the observation, then one row per slot."""
        return self.obs_dim + self.max_legal * self.action_dim


class LearningError(ValueError):
    """A decision wider than the declared action space, or an adapter used wrongly."""


def spec_for(game: str) -> LearningSpec:
    """The learning spec of a registered game (a clear ``GameError`` for an unknown slug)."""
    return LearningSpec(max_legal=registry.entry(game).max_legal)


def encode(value: Any, dim: int) -> np.ndarray:
    """The hashed feature vector (float32, length ``dim``) of a JSON value: the stdlib
    reference in :mod:`arena.learning.policy_bot`, which uploaded bots run, as numpy."""
    return np.asarray(features(value, dim), dtype=np.float32)


def encode_decision(
    spec: LearningSpec, observation: dict[str, Any] | None, legal: list[Any]
) -> tuple[np.ndarray, np.ndarray]:
    """``(observation array, action mask)`` for one seat. ``legal`` is empty when the seat
    is not to play (then the mask is all zeros)."""
    if len(legal) > spec.max_legal:
        raise LearningError(
            f"{len(legal)} legal actions but the declared action space holds {spec.max_legal}"
        )
    flat = np.zeros(spec.size, dtype=np.float32)
    if observation is not None:
        flat[: spec.obs_dim] = encode(observation, spec.obs_dim)
    for i, action in enumerate(legal):
        start = spec.obs_dim + i * spec.action_dim
        flat[start : start + spec.action_dim] = encode(action, spec.action_dim)
    mask = np.zeros(spec.max_legal, dtype=np.int8)
    mask[: len(legal)] = 1
    return flat, mask


def rewards(result: dict[str, Any], players: int, mode: str = "rank") -> list[float]:
    """Final rewards per seat. ``rank``: first 1.0, last -1.0, linear between (ties share);
    alone at the table (solo games) the score, as ``score`` mode always gives."""
    if mode not in ("rank", "score"):
        raise LearningError(f"reward mode must be 'rank' or 'score', got {mode!r}")
    if mode == "score" or players == 1:
        return [float(s) for s in result["scores"]]
    return [1.0 - 2.0 * (r - 1) / (players - 1) for r in result["ranks"]]
