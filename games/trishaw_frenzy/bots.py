"""Built-in bots (placeholder heuristic, replaced below)."""

from __future__ import annotations

from games.base import JSON, Action, Bot


class RacerBot(Bot):
    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        return 0
