"""Trishaw Frenzy: the SVG picture of a state (``render_svg.render_svg``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from svg_checks import NS, check_standalone, random_states, texts

from games.registry import get_game
from games.trishaw_frenzy import render_svg as rs
from games.trishaw_frenzy import scoring
from games.trishaw_frenzy.board import board_rows
from games.trishaw_frenzy.components import EVENT_TILES
from games.trishaw_frenzy.geometry import ARROWS, N


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_state_of_random_games_draws_a_sound_picture(players: int) -> None:
    for seed in range(4):
        for s in states(players, seed):
            svg = rs.render_svg(s)
            root = check_standalone(svg)
            assert len(svg) < 40_000
            assert rs.render_svg(s) == svg, "deterministic"
            shown = texts(root)
            totals = scoring.totals(s["tokens"], s["bonus"])
            for t, total in enumerate(totals):
                who = "AI trishaw" if players == 1 and t == 1 else f"Seat {t}"
                assert any(x.startswith(who) for x in shown), who
                assert shown.count(f"{total} VP") >= totals.count(total)
            assert f"Round {s['round']} of {s['rounds']}" in "".join(
                "".join(e.itertext()) for e in root.iter(f"{NS}text")
            )


def test_trishaws_stand_on_their_squares_and_the_mover_is_ringed() -> None:
    st = get_game("trishaw-frenzy").new_game(3, 11)
    while len(set(st.s["pos"])) < 3 or st.s["phase"] != "roll":  # all on different squares
        st.apply_index(0)
    s = st.to_json()
    root = ET.fromstring(rs.render_svg(s))
    discs = {}
    for c in root.iter(f"{NS}circle"):
        title = c.find(f"{NS}title")
        if title is not None and title.text and title.text.startswith("Seat "):
            discs[int(title.text.split()[1].rstrip(":"))] = (float(c.get("cx")), float(c.get("cy")))
    assert sorted(discs) == [0, 1, 2]
    for t, cell in enumerate(s["pos"]):
        row, col = divmod(cell, N)
        centre = (
            rs.BOARD_X + col * rs.CELL + rs.CELL / 2,
            rs.BOARD_Y + row * rs.CELL + rs.CELL / 2,
        )
        assert discs[t] == centre
    rings = [c for c in root.iter(f"{NS}circle") if c.get("stroke-dasharray")]
    assert [(float(c.get("cx")), float(c.get("cy"))) for c in rings] == [discs[s["turn"]]]


def test_arrows_point_the_way_the_board_says() -> None:
    st = get_game("trishaw-frenzy").new_game(2, 5)
    s = st.to_json()
    svg = rs.render_svg(s)
    drawn = {
        (int(x), int(y)): int(a)
        for x, y, a in re.findall(
            r'href="#tf-arrow" transform="translate\((\d+),(\d+)\) rotate\((\d+)\)"', svg
        )
    }
    want = {}
    for row, line in enumerate(board_rows(s["tiles"])):
        for col, ch in enumerate(line):
            if ch in ARROWS:
                centre = (
                    rs.BOARD_X + col * rs.CELL + rs.CELL // 2,
                    rs.BOARD_Y + row * rs.CELL + rs.CELL // 2,
                )
                want[centre] = 90 * ARROWS.index(ch)
    assert drawn == want and len(want) == 16


def test_an_event_decision_outlines_the_cards_tiles_and_names_the_choice() -> None:
    st = get_game("trishaw-frenzy").new_game(4, 8)
    while st.s["phase"] != "event":
        st.apply_index(0)
    s = st.to_json()
    svg = rs.render_svg(s)
    card, view = s["event"]
    outlined = re.findall(r'<rect x="(\d+)" y="(\d+)"[^>]*stroke-dasharray="10 6"', svg)
    tiles = sorted(
        ((int(y) - 3 - rs.BOARD_Y) // (3 * rs.CELL)) * 3
        + (int(x) - 3 - rs.BOARD_X) // (3 * rs.CELL)
        for x, y in outlined
    )
    assert tiles == sorted(EVENT_TILES[card][view])
    assert "event decision" in svg and "rotate tile" in svg


def test_the_final_picture_names_the_winner() -> None:
    *_, last = states(3, 21, every=1000)
    assert last["phase"] == "over"
    svg = rs.render_svg(last)
    result = get_game("trishaw-frenzy").state_from_json(last).result()
    winners = [t for t, r in enumerate(result.ranks) if r == 1]
    if len(winners) == 1:
        assert f"Game over: Seat {winners[0]} wins" in svg
    else:
        assert "Game over: seats " + ", ".join(map(str, winners)) + " tie" in svg


def states(players: int, seed: int, every: int = 4):
    return random_states("trishaw-frenzy", players, seed, every)
