"""What every game's SVG picture must be, and states to draw: shared by the render tests."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

from games.registry import get_game
from games.rng import Rng

NS = "{http://www.w3.org/2000/svg}"


def random_states(slug: str, players: int, seed: int, every: int) -> Iterator[dict[str, Any]]:
    """Every ``every``-th state of one seeded random game, and its final state."""
    st = get_game(slug).new_game(players, seed)
    rng = Rng(seed)
    k = 0
    while not st.is_over():
        if k % every == 0:
            yield st.to_json()
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
        k += 1
    yield st.to_json()


def check_standalone(svg: str) -> ET.Element:
    """One self-contained, scalable <svg>: well-formed, a viewBox, no script, nothing fetched
    from outside (only the namespace mentions http; links only to its own ids)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    assert root.get("width") == "100%" and root.get("height") is None
    assert "<script" not in svg.lower()
    assert svg.count("http") == 1 and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', svg))
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]
