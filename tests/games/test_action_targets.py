"""What each legal action is about on the game's picture (``render_svg.action_targets``):
every selector the play page is given names at least one part of that very picture, so a
click on the board always has something to land on; a game without targets gives None."""

from __future__ import annotations

import dataclasses
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

import arena.pictures
from arena.pictures import action_targets, render_svg
from games import registry
from games.registry import get_game

ATTR = re.compile(r'\[([\w-]+)="([^"]*)"\]')


def count_matches(svg: str, selector: str) -> int:
    """Elements matching ``selector``: attribute tests joined by descendant combinators (the
    only form the renderers use)."""
    tests = [ATTR.fullmatch(part) for part in selector.split(" ")]
    assert all(tests), f"unexpected selector {selector!r}"
    chain = [(m.group(1), m.group(2)) for m in tests if m]

    def walk(el: ET.Element, done: int) -> int:
        name, value = chain[done]
        here = el.get(name) == value
        if here and done == len(chain) - 1:
            found = 1
            done_below = done  # a match may hold another one below it
        else:
            found = 0
            done_below = done + 1 if here else done
        return found + sum(walk(child, done_below) for child in el)

    return walk(ET.fromstring(svg), 0)


def positions(slug: str, players: int, seed: int, limit: int = 250):
    game = get_game(slug)
    state = game.new_game(players, seed, {})
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over():
            return
        yield state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("slug", "players", "kinds"),
    [
        ("trnd", 3, {"draw", "take", "discard"}),
        ("tri-area", 4, {"build"}),
        ("trishaw-frenzy", 2, {"rotate"}),
        ("manhattan-traffiq", 3, {"place", "place_at", "vehicle"}),
    ],
)
def test_every_target_is_on_the_picture(slug: str, players: int, kinds: set[str]) -> None:
    targeted: Counter[str] = Counter()
    for seed in range(3):
        for state in positions(slug, players, seed):
            view = state.to_json()
            legal = state.legal_actions()
            svg = render_svg(slug, view)
            assert svg is not None
            targets = action_targets(slug, view, legal)
            assert len(targets) == len(legal)
            for action, selector in zip(legal, targets, strict=True):
                if selector is None:
                    continue
                assert count_matches(svg, selector) >= 1, (action, selector)
                targeted[action["type"]] += 1
    assert kinds <= set(targeted), targeted


def test_trnd_targets_name_the_slot_the_pile_and_the_hand() -> None:
    state = next(iter(positions("trnd", 3, 1)))
    view, legal = state.to_json(), state.legal_actions()
    targets = dict(zip(map(str, legal), action_targets("trnd", view, legal), strict=True))
    assert targets[str({"type": "draw"})] == '[data-zone="draw"]'
    assert targets[str({"type": "take", "slot": 2})] == '[data-slot="2"]'


def test_a_game_without_targets_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    state = next(iter(positions("manhattan-traffiq", 2, 1)))
    legal = state.legal_actions()
    assert any(action_targets("manhattan-traffiq", state.to_json(), legal))
    # a game whose renderer has no action_targets, or one that answers for too few actions
    entry = registry.entry("manhattan-traffiq")
    without = dataclasses.replace(entry, action_targets=None)
    monkeypatch.setattr(arena.pictures, "_entry", lambda slug: without)
    assert action_targets("manhattan-traffiq", state.to_json(), legal) == [None] * len(legal)
    too_few = dataclasses.replace(entry, action_targets=lambda view, acts: ["[x]"])
    monkeypatch.setattr(arena.pictures, "_entry", lambda slug: too_few)
    assert action_targets("manhattan-traffiq", state.to_json(), legal) == [None] * len(legal)
