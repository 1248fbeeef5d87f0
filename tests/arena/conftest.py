"""Fixtures for the referee tests: tiny game-agnostic bots written on the fly and the games
that import right now."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from referee_helpers import BOT_TEMPLATE, usable_games

from games import registry

BotFactory = Callable[..., str]


@pytest.fixture
def make_bot(tmp_path: Path) -> BotFactory:
    """``make_bot(name, behaviour="")``: write a bot file whose ``behaviour`` code overrides
    ``on_start``/``on_act``; return its path."""

    def make(name: str = "good", behaviour: str = "") -> str:
        path = tmp_path / f"{name}.py"
        path.write_text(BOT_TEMPLATE.format(behaviour=textwrap.dedent(behaviour)))
        return str(path)

    return make


@pytest.fixture(scope="session")
def games_now() -> list[str]:
    found = usable_games()
    assert found, "no registered game imports: nothing to referee"
    return found


@pytest.fixture(scope="session")
def small_game(games_now: list[str]) -> str:
    """A game for the fault tests: the one whose first-action matches are shortest."""

    def length(slug: str) -> int:
        g = registry.get_game(slug)
        state = g.new_game(max(2, g.min_players), 1)
        n = 0
        while not state.is_over() and n < 5000:
            state.apply(state.legal_actions()[0])
            n += 1
        return n

    return min(games_now, key=length)


@pytest.fixture(autouse=True)
def process_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process backend for every referee test (the Docker backend has its own tests);
    ``ARENA_TEST_SANDBOX=docker`` runs this suite through Docker instead."""
    monkeypatch.setenv("ARENA_SANDBOX", os.environ.get("ARENA_TEST_SANDBOX", "process"))
