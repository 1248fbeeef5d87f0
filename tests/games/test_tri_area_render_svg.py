"""Tri*Area's SVG picture: well-formed standalone SVG for states all through seeded random games
(every player count), each seat's score and whole hand shown, stacks drawn where the board puts
them, deterministic, small and fast."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from games.base import GameError
from games.registry import get_game
from games.rng import Rng
from games.tri_area.render_svg import SEAT_COLOURS, render_svg

GAME = get_game("tri-area")
NS = "{http://www.w3.org/2000/svg}"
SEEDS = range(6)


def states(players: int, seed: int, every: int = 5) -> Iterator[dict]:
    """Every ``every``-th state of a random game, its first and its final state."""
    state = GAME.new_game(players, seed)
    rng = Rng(seed ^ 0xA5)
    n = 0
    yield state.to_json()
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        n += 1
        if n % every == 0 or state.is_over():
            yield state.to_json()


def texts(node: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in node.iter(f"{NS}text")]


def group(root: ET.Element, attr: str, value: object) -> ET.Element:
    found = [g for g in root.iter(f"{NS}g") if g.get(attr) == str(value)]
    assert len(found) == 1, f"expected one <g {attr}={value!r}>, got {len(found)}"
    return found[0]


def check_picture(data: dict) -> ET.Element:
    svg = render_svg(data)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") and root.get("width") == "100%"
    assert "<script" not in svg.lower()
    assert svg.count("http") == 1 and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert "href" not in svg  # nothing external, nothing to follow
    assert len(svg) < 60_000
    for seat in range(4):
        panel = group(root, "data-seat", seat)
        shown = texts(panel)
        assert str(data["scores"][seat]) in shown
        name = f"Seat {seat}" if seat < data["players"] else f"NPC {seat}"
        assert name in shown
        cards = sorted(g.get("data-card") for g in panel.iter(f"{NS}g") if g.get("data-card"))
        decl = data["lead_decl"][seat]
        assert cards == sorted(data["hands"][seat] + ([decl] if decl else []))
    return root


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_whole_random_games_render_valid_svg(players: int) -> None:
    for seed in SEEDS:
        rendered = 0
        for data in states(players, seed, every=players):
            check_picture(data)
            rendered += 1
        assert data["phase"] == "over" and rendered > 30  # whole games, many positions


def test_every_phase_and_stacks_match_the_board() -> None:
    phases = set()
    for players in (1, 4):
        for data in states(players, 3, every=3):
            phases.add(data["phase"])
            root = check_picture(data)
            for sq, stack in enumerate(data["board"]):
                cell = group(root, "data-square", sq)
                assert cell.get("data-height") == str(len(stack))
                fills = [
                    r.get("fill")
                    for r in cell.iter(f"{NS}rect")
                    if r.get("fill") in SEAT_COLOURS and r.get("width") == "46"
                ]
                assert fills == [SEAT_COLOURS[s] for s in stack]  # bottom block first
    assert phases >= {"meeting", "build", "lead_declaration", "sell", "over"}


def test_a_placed_building_is_drawn_on_its_square_with_its_height() -> None:
    data = GAME.new_game(2, 8).to_json()
    data["board"][6] = [2, 0, 0]  # NPC 2 at the bottom, seat 0 on top
    root = check_picture(data)
    cell = group(root, "data-square", 6)
    blocks = [r for r in cell.iter(f"{NS}rect") if r.get("width") == "46"]
    assert [b.get("fill") for b in blocks] == [SEAT_COLOURS[2], SEAT_COLOURS[0], SEAT_COLOURS[0]]
    # Stacked upwards: each block above the one before it.
    ys = [float(b.get("y")) for b in blocks]
    assert ys == sorted(ys, reverse=True)
    assert "3" in texts(cell) and "+3" in texts(cell)  # height, and the square's printed points
    assert any(p.get("fill") == "#d4a017" for p in cell.iter(f"{NS}polygon"))  # the tallest
    # An empty square shows its printed points big; no block is drawn there.
    empty = group(root, "data-square", 5)
    assert "+3" in texts(empty) and not [
        r for r in empty.iter(f"{NS}rect") if r.get("width") == "46"
    ]


def test_trick_status_and_turn_are_shown() -> None:
    state = GAME.new_game(4, 21)
    while state.phase != "build":
        state.apply(state.legal_actions()[0])
    data = state.to_json()
    shown = " ".join(texts(check_picture(data)))
    assert f"Round {data['round']} of 3" in shown
    assert f"to act: Seat {data['turn']}" in shown
    assert "construction" in shown and "RH1" in shown


def test_deterministic_and_independent_of_json_round_trip() -> None:
    for data in list(states(3, 5, every=17)):
        assert render_svg(data) == render_svg(data)
        assert render_svg(data) == render_svg(GAME.state_from_json(data).to_json())


def test_text_is_escaped() -> None:
    data = GAME.new_game(4, 1).to_json()
    data["hands"][0] = ["I<&\"'"]  # a corrupt card must not break the picture
    root = ET.fromstring(render_svg(data))
    assert "<&\"'" in " ".join(texts(root))


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(GameError, match="missing field"):
        render_svg({"players": 4})
