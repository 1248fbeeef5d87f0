"""Learning adapters: every registered game as a PettingZoo AEC environment and as a
Gymnasium single-agent environment (docs/learning.md). Needs the ``rl`` extra:
``pip install -e '.[rl]'`` (numpy, gymnasium, pettingzoo)."""

from arena.learning.export import export_bot
from arena.learning.gymnasium_env import MeepleGymEnv
from arena.learning.pettingzoo_env import MeepleAECEnv, env
from arena.learning.spec import LearningError, LearningSpec, encode, spec_for

__all__ = [
    "LearningError",
    "LearningSpec",
    "MeepleAECEnv",
    "MeepleGymEnv",
    "encode",
    "env",
    "export_bot",
    "spec_for",
]
