"""Trishaw Frenzy: the text picture of a state."""

from __future__ import annotations

from games.registry import get_game
from games.trishaw_frenzy.board import board_rows
from games.trishaw_frenzy.render import render_text


def test_render_shows_the_map_the_riders_and_the_event() -> None:
    st = get_game("trishaw-frenzy").new_game(3, 8)
    while st.s["phase"] != "event":
        st.apply_index(0)
    text = render_text(st.to_json())
    assert "round 1/3" in text and "phase event" in text
    rows = [line for line in text.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 9
    faces = board_rows(st.s["tiles"])
    for line, expected in zip(rows, faces, strict=True):
        squares = "".join(line[5 + 3 * c + 2 * (c // 3)] for c in range(9))
        assert squares == expected
    for t in range(3):
        assert f"rider {t}: at" in text
    assert "event E" in text


def test_render_marks_the_solo_ai() -> None:
    st = get_game("trishaw-frenzy").new_game(1, 2)
    text = render_text(st.to_json())
    assert "AI: at" in text and "rider 0: at" in text
