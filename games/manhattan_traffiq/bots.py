"""Built-in bots (the heuristic one is filled in below)."""

from __future__ import annotations

from games.base import JSON, Action, Bot


class GreedyBot(Bot):
    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        return 0
