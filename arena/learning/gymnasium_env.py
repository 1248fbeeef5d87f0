"""A Gymnasium single-agent environment: the learner holds one seat of a registered game and
bots play every other seat in-process (``builtin:NAME``, or any :class:`games.base.Bot`
subclass or ``(observation, legal) -> index`` callable you pass).

Observation space, action space and ``info`` are those of the AEC adapter
(:mod:`arena.learning.pettingzoo_env`); ``info["action_mask"]`` repeats the mask. The bots'
seeds are derived from the match seed as the referee derives them, so ``reset(seed=s)``
followed by the same actions plays the same match as ``arena play`` with seed ``s``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from arena.contract import BUILTIN_PREFIX, builtin_bot
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
from games.base import Bot, GameState
from games.rng import derive_seed

Policy = Callable[[dict[str, Any], list[Any]], int]
Opponent = str | type[Bot] | Policy

ILLEGAL_MODES = ("penalty", "wrap", "raise")


class MeepleGymEnv(gym.Env):
    """``MeepleGymEnv("trnd", opponents=["builtin:greedy", "builtin:random"], seat=0)``.

    ``illegal`` says what an index outside the legal list does: ``penalty`` (default) ends
    the episode with ``illegal_reward`` and ``info["illegal"] = True``; ``wrap`` plays
    ``index % len(legal)``; ``raise`` raises :class:`LearningError`.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        opponents: list[Opponent] | None = None,
        *,
        seat: int = 0,
        options: dict[str, Any] | None = None,
        reward: str = "rank",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        max_decisions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.game_slug = game
        self.game = registry.get_game(game)
        self.learning_spec: LearningSpec = spec_for(game)
        if opponents is None:
            opponents = [builtin_bot("random")] * (self.game.min_players - 1)
        self.opponents = list(opponents)
        self.players = len(self.opponents) + 1
        if not 0 <= seat < self.players:
            raise LearningError(f"seat must be 0..{self.players - 1}, got {seat}")
        self.seat = seat
        self.game_options = self.game.check_options(dict(options or {}))
        self.game.new_game(self.players, 0, self.game_options)  # a clear error now
        self._bot_classes = [self._resolve(o) for o in self.opponents]
        rewards({"scores": [0] * self.players, "ranks": [1] * self.players}, 1, reward)
        self.reward_mode = reward
        if illegal not in ILLEGAL_MODES:
            raise LearningError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.max_decisions = max_decisions
        if render_mode not in (None, "ansi"):
            raise LearningError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (self.learning_spec.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.learning_spec.max_legal,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.learning_spec.max_legal)
        self.state_: GameState | None = None
        self.match_seed = 0

    def _resolve(self, opponent: Opponent) -> Any:
        if isinstance(opponent, str):
            if not opponent.startswith(BUILTIN_PREFIX):
                raise LearningError(
                    f"opponent {opponent!r}: use builtin:NAME, a Bot class or a callable"
                )
            return registry.get_bot(self.game_slug, opponent[len(BUILTIN_PREFIX) :])
        if isinstance(opponent, type) and issubclass(opponent, Bot):
            return opponent
        if callable(opponent):
            return opponent
        raise LearningError(f"opponent {opponent!r}: use builtin:NAME, a Bot class or a callable")

    # -- the match ---------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.match_seed = int(seed)
        else:
            self.match_seed = int(self.np_random.integers(0, 2**31))
        self.state_ = self.game.new_game(self.players, self.match_seed, self.game_options)
        self.decisions = 0
        self.bots: dict[int, Policy] = {}
        others = [s for s in range(self.players) if s != self.seat]
        for s, cls in zip(others, self._bot_classes, strict=True):
            if isinstance(cls, type):
                # the referee's seeds (arena/referee.py), so both play the same match
                bot = cls(
                    s, self.players, self.game_options, derive_seed(self.match_seed, "bot", s)
                )
                self.bots[s] = bot.act
            else:
                self.bots[s] = cls
        self.result: dict[str, Any] | None = None
        self._run_bots()
        return self._observe()

    def _run_bots(self) -> None:
        state = self.state_
        assert state is not None
        while not state.is_over() and state.current_seat() != self.seat:
            if self.max_decisions is not None and self.decisions >= self.max_decisions:
                return
            seat = state.current_seat()
            assert seat is not None
            legal = state.legal_actions()
            index = self.bots[seat](state.observation(seat), legal)
            state.apply(legal[index])
            self.decisions += 1

    def _observe(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        state = self.state_
        assert state is not None
        acting = not state.is_over() and state.current_seat() == self.seat
        legal = state.legal_actions() if acting else []
        observation = state.observation(self.seat)
        flat, mask = encode_decision(self.learning_spec, observation, legal)
        info: dict[str, Any] = {
            "observation_json": observation,
            "legal_actions": legal,
            "action_mask": mask,
            "seed": self.match_seed,
        }
        if self.result is not None:
            info["result"] = self.result
        return {"observation": flat, "action_mask": mask}, info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.state_
        if state is None or state.is_over():
            raise LearningError("step() after the episode ended: call reset()")
        legal = state.legal_actions()
        index = int(action)
        if not 0 <= index < len(legal):
            if self.illegal == "wrap":
                index %= len(legal)
            elif self.illegal == "raise":
                raise LearningError(f"action {index} is not legal (0..{len(legal) - 1})")
            else:
                obs, info = self._observe()
                info["illegal"] = True
                self.state_ = None  # the episode is over; reset() starts the next
                return obs, self.illegal_reward, True, False, info
        state.apply(legal[index])
        self.decisions += 1
        self._run_bots()
        reward = 0.0
        terminated = state.is_over()
        if terminated:
            self.result = state.result().to_json()
            reward = rewards(self.result, self.players, self.reward_mode)[self.seat]
        truncated = (
            not terminated
            and self.max_decisions is not None
            and self.decisions >= self.max_decisions
        )
        obs, info = self._observe()
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return render_text(self.game_slug, self.state_.to_json())
