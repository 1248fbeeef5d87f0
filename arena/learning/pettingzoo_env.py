"""A PettingZoo AEC environment for any registered game.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Each observation is a dict with
``observation`` (float32, the hashed JSON observation followed by one hashed row per legal
action, see :mod:`arena.learning.spec`) and ``action_mask`` (int8, 1 for the first
``len(legal)`` slots of the acting seat, zeros otherwise). An action is an index into the
legal-action list. ``info`` carries the JSON observation, the legal actions and the mask.
Rewards come only at the end, from the final ranks (or scores, see ``reward``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.learning.spec import (
    BOUND,
    LearningError,
    LearningSpec,
    encode_decision,
    rewards,
    spec_for,
)
from arena.pictures import render_text
from games import registry
from games.base import GameState


class MeepleAECEnv(AECEnv):
    """``MeepleAECEnv("trnd", players=3)``; ``reset(seed=...)`` deals a new match with that
    game seed, exactly as the referee would for the same seed and options."""

    metadata = {"render_modes": ["ansi"], "name": "meeple_arena_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        *,
        reward: str = "rank",
        max_decisions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game_slug = game
        self.game = registry.get_game(game)
        self.learning_spec: LearningSpec = spec_for(game)
        self.players = self.game.min_players if players is None else players
        self.game_options = self.game.check_options(dict(options or {}))
        self.game.new_game(self.players, 0, self.game_options)  # a clear error now, not later
        rewards({"scores": [0] * self.players, "ranks": [1] * self.players}, 1, reward)
        self.reward_mode = reward
        self.max_decisions = max_decisions
        if render_mode not in (None, "ansi"):
            raise LearningError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (self.learning_spec.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.learning_spec.max_legal,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.learning_spec.max_legal) for a in self.possible_agents
        }
        self.state_: GameState | None = None
        self.seed_ = 0

    # PettingZoo asks for the very same space object every time.
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the match ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.seed_ = int(seed)
        self.state_ = self.game.new_game(self.players, self.seed_, self.game_options)
        self.decisions = 0
        self.result: dict[str, Any] | None = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select(self._seat())
        # The next reset without a seed deals a different match, still reproducibly.
        self.seed_ += 1

    def _seat(self) -> int:
        assert self.state_ is not None
        seat = self.state_.current_seat()
        assert seat is not None
        return seat

    def _select(self, seat: int) -> None:
        self.agent_selection = self.possible_agents[seat]
        assert self.state_ is not None
        legal = self.state_.legal_actions()
        _, mask = encode_decision(self.learning_spec, None, legal)
        self.infos[self.agent_selection] = {
            "observation_json": self.state_.observation(seat),
            "legal_actions": legal,
            "action_mask": mask,
        }

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state_ is not None
        seat = self.possible_agents.index(agent)
        acting = not self.state_.is_over() and self.state_.current_seat() == seat
        legal = self.state_.legal_actions() if acting else []
        flat, mask = encode_decision(self.learning_spec, self.state_.observation(seat), legal)
        return {"observation": flat, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None
        legal = self.state_.legal_actions()
        index = int(action)
        if not 0 <= index < len(legal):
            raise LearningError(
                f"{agent}: action {index} is not legal (legal indices 0..{len(legal) - 1}; "
                "use the action_mask)"
            )
        self.state_.apply(legal[index])
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        if self.state_.is_over():
            self.result = self.state_.result().to_json()
            for a, r in zip(
                self.possible_agents,
                rewards(self.result, self.players, self.reward_mode),
                strict=True,
            ):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"result": self.result}
        elif self.max_decisions is not None and self.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {}
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._select(self._seat())
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return render_text(self.game_slug, self.state_.to_json())

    def close(self) -> None:
        self.state_ = None


def env(game: str, players: int | None = None, **kwargs: Any) -> MeepleAECEnv:
    """``arena.learning.env("trnd", players=3)``: the AEC environment of one game."""
    return MeepleAECEnv(game, players, **kwargs)
