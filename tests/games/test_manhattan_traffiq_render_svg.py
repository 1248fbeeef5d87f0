"""Manhattan TraffIQ: the SVG picture of a state (``render_svg.render_svg``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from svg_checks import NS, check_standalone, random_states

from games.manhattan_traffiq import render_svg as rs
from games.manhattan_traffiq.board import Board
from games.registry import get_bot, get_game

POINTS = {"taxi": 1, "truck": 2}


def points(s: dict[str, Any], seat: int) -> int:
    return sum(POINTS[k] for _, _, who, k in s["vehicles"] if who == seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_random_games_draws_a_sound_picture(players: int) -> None:
    for seed in range(4):
        view_boxes = set()
        for s in states(players, seed):
            svg = rs.render_svg(s)
            root = check_standalone(svg)
            assert len(svg) < 60_000
            assert rs.render_svg(s) == svg, "deterministic"
            view_boxes.add(root.get("viewBox"))
            shown = [t.text or "" for t in root.iter(f"{NS}text")]
            for seat in range(players):
                assert f"Seat {seat}" in shown
                assert f"{points(s, seat)} pts" in shown
            blocks = [r for r in root.iter(f"{NS}rect") if r.get("fill") == rs.BLOCK]
            assert len(blocks) == len(s["tiles"])
        # the canvas keeps its size while the city grows: the replay does not jump
        assert len(view_boxes) == 1


def test_vehicles_stand_on_their_crossings() -> None:
    # greedy bots put vehicles down (random play seldom does)
    st = get_game("manhattan-traffiq").new_game(3, 7)
    bots = [get_bot("manhattan-traffiq", "greedy")(seat, 3, {}, seat) for seat in range(3)]
    while {v[3] for v in st.to_json()["vehicles"]} != {"taxi", "truck"}:
        seat = st.current_seat()
        assert seat is not None, "the game ended before both kinds were on the map"
        legal = st.legal_actions()
        st.apply(legal[bots[seat].act(st.observation(seat), legal)])
    found = st.to_json()
    assert len(found["vehicles"]) >= 5
    root = ET.fromstring(rs.render_svg(found))
    for legend in root.findall(f"{NS}g[@class='legend']"):
        root.remove(legend)
    # tile (x, y)'s block has node (x, y) as its top-left corner; blocks come in placement order
    blocks = [r for r in root.iter(f"{NS}rect") if r.get("fill") == rs.BLOCK]
    corner = {
        (x, y): (float(r.get("x")), float(r.get("y")))
        for (x, y, _, _), r in zip(found["tiles"], blocks, strict=True)
    }
    drawn = {}
    for el in root.iter():
        title = el.find(f"{NS}title")
        if title is None or not (title.text or "").startswith("seat "):
            continue
        if el.tag == f"{NS}circle":
            centre = (float(el.get("cx")), float(el.get("cy")))
        else:
            half = float(el.get("width")) / 2
            centre = (float(el.get("x")) + half, float(el.get("y")) + half)
        seat, kind = title.text.split()[1:3]
        drawn[centre] = (int(seat), kind, el.tag.removeprefix(NS))
    assert len(drawn) == len(found["vehicles"])
    for i, j, seat, kind in found["vehicles"]:
        # a crossing's four tiles are all placed, so tile (i, j) gives the node's position
        x, y = corner[(i, j)]
        near = [v for (cx, cy), v in drawn.items() if abs(cx - x) < 0.2 and abs(cy - y) < 0.2]
        assert near == [(seat, kind, "circle" if kind == "taxi" else "rect")]
    # every empty crossing is a white dot at its node
    spots = Board.from_placed([tuple(t) for t in found["tiles"]]).spots
    occupied = {(i, j) for i, j, _, _ in found["vehicles"]}
    dots = {
        (float(c.get("cx")), float(c.get("cy")))
        for c in root.iter(f"{NS}circle")
        if c.get("fill") == "#fff"
    }
    assert dots == {corner[n] for n in spots - occupied}


def test_a_decision_on_a_crossing_rings_it_and_says_what_is_decided() -> None:
    for s in states(2, 3, every=1):
        if s["phase"] == "vehicle":
            break
    else:
        pytest.fail("no vehicle decision in this game")
    svg = rs.render_svg(s)
    assert f"Seat {s['current']} may add a vehicle" in svg
    assert svg.count('stroke-dasharray="5 3"') == 1


def test_the_final_picture_names_the_winner() -> None:
    *_, last = states(4, 12, every=10_000)
    assert last["phase"] == "over"
    svg = rs.render_svg(last)
    result = get_game("manhattan-traffiq").state_from_json(last).result()
    winners = [t for t, r in enumerate(result.ranks) if r == 1]
    if result.details["winner"] is not None:
        assert f"Game over: Seat {winners[0]} wins" in svg
        assert "placed every vehicle" in svg
    elif len(winners) == 1:
        assert f"Game over: Seat {winners[0]} wins" in svg
    else:
        assert "Game over: seats " + ", ".join(map(str, winners)) + " tie" in svg


def states(players: int, seed: int, every: int = 5):
    return random_states("manhattan-traffiq", players, seed, every)


def test_status_lines_fit_the_panel() -> None:
    """Every panel line fits its 300 px column: no "Game over: Seat 1 placed every vehicl"."""
    import xml.etree.ElementTree as ET

    seen = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for s in states(players, seed, every=1):
            root = ET.fromstring(rs.render_svg(s))
            for el in root.iter(f"{NS}text"):
                x = float(el.get("x") or 0)
                if x < rs.PANEL_X:
                    continue
                text = "".join(el.itertext())
                size = float(el.get("font-size") or 14)
                bold = el.get("font-weight") == "700"
                # a generous average glyph width for a sans-serif face
                width = len(text) * size * (0.62 if bold else 0.56)
                anchor_end = el.get("text-anchor") == "end"
                right = x if anchor_end else x + width
                assert right <= rs.WIDTH - 4, f"{text!r} overflows ({right:.0f} > {rs.WIDTH})"
                seen.add(text)
    assert any(t.startswith("Game over") for t in seen)
