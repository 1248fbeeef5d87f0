"""The registry: a game registers itself once, as ``ENTRY`` in its own package, and the
registry, the pictures and the learning adapters read that registration and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import games
import games.trnd
from games import registry
from games.base import Bot, Game, GameError
from games.entry import GameEntry
from games.rng import Rng

GAMES_DIR = Path(games.__file__).parent
SLUGS = registry.slugs()


def test_every_game_folder_is_a_registered_game() -> None:
    folders = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file())
    assert [f.replace("_", "-") for f in folders] == SLUGS
    assert {"trnd", "tri-area", "trishaw-frenzy", "manhattan-traffiq"} <= set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_registered_game_declares_every_part(slug: str) -> None:
    """What each consumer reads: the rules, the bots, the rulebook, the learning action space,
    the pictures. A game that lacks one fails here (or fails to import, for a required one)."""
    entry = registry.entry(slug)
    assert isinstance(entry, GameEntry) and entry.slug == slug
    assert isinstance(entry.game, Game) and entry.game.slug == slug
    assert "random" in entry.bots and len(entry.bots) >= 2, "random and a stronger one"
    assert all(isinstance(b, type) and issubclass(b, Bot) for b in entry.bots.values())
    assert entry.rules.is_file() and entry.rules.name == "RULES.md"
    assert entry.max_legal >= 1
    # All four games draw both pictures and say what each action points at: the site's play
    # page and replay viewer rely on it (a new game may leave them out, and is then drawn as
    # text only: this list says which games do).
    assert entry.render_text is not None and entry.render_svg is not None
    assert entry.action_targets is not None
    state = entry.game.new_game(entry.game.min_players, 1)
    assert isinstance(entry.render_text(state.to_json()), str)
    assert entry.render_svg(state.to_json()).lstrip().startswith("<svg")
    targets = entry.action_targets(state.to_json(), state.legal_actions())
    assert len(targets) == len(state.legal_actions())


@pytest.mark.parametrize("slug", SLUGS)
def test_the_declared_action_space_holds_random_playouts(slug: str) -> None:
    """``max_legal`` bounds every decision (tests/learning checks many more playouts)."""
    entry = registry.entry(slug)
    for players in sorted({entry.game.min_players, entry.game.max_players}):
        state = entry.game.new_game(players, 7)
        rng = Rng(7)
        while not state.is_over():
            legal = state.legal_actions()
            assert len(legal) <= entry.max_legal, (players, len(legal))
            state.apply(legal[rng.below(len(legal))])
        json.dumps(state.result().to_json())


def test_the_registry_reads_the_registration() -> None:
    entry = registry.entry("trnd")
    assert registry.get_game("trnd") is entry.game
    assert registry.bots("trnd") == dict(entry.bots)
    assert registry.rules_path("trnd") == entry.rules
    assert registry.text_renderer("trnd") is entry.render_text
    assert registry.svg_renderer("trnd") is entry.render_svg
    assert registry.targets_of("trnd") is entry.action_targets


def test_unknown_game_and_bot_are_clear_errors() -> None:
    with pytest.raises(GameError, match=r"unknown game 'chess' \(known: "):
        registry.entry("chess")
    with pytest.raises(GameError, match="trnd has no built-in bot 'nope'"):
        registry.get_bot("trnd", "nope")


def test_an_entry_lacking_a_part_is_refused() -> None:
    game = registry.get_game("trnd")
    rules = registry.rules_path("trnd")
    with pytest.raises(GameError, match="must include 'random'"):
        GameEntry(game=game, bots={}, rules=rules, max_legal=8)
    with pytest.raises(GameError, match="max_legal must be positive"):
        GameEntry(game=game, bots=registry.bots("trnd"), rules=rules, max_legal=0)
    with pytest.raises(TypeError):
        GameEntry(game=game, bots=registry.bots("trnd"), rules=rules)  # type: ignore[call-arg]


def test_a_package_without_its_registration_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registry.entry.cache_clear()
    monkeypatch.delattr(games.trnd, "ENTRY")
    try:
        with pytest.raises(GameError, match=r"games\.trnd declares no ENTRY"):
            registry.entry("trnd")
    finally:
        registry.entry.cache_clear()
