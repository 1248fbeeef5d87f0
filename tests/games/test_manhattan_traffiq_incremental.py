"""Manhattan TraffIQ keeps what the legal actions and the observation need up to date on each
placement (the colours each frontier cell needs, which hand tiles fit, the observation's
tiles and spots) instead of rebuilding them from the whole map on every decision. These
tests compare the kept values with a rebuild from the placed tiles alone, at every decision of
seeded random games, and across clones and JSON round trips.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.manhattan_traffiq import GAME
from games.manhattan_traffiq.board import STEP, Board, has_empty_neighbour, taxi_targets
from games.manhattan_traffiq.components import ALL_PATTERNS, distinct_rotations, rotate
from games.manhattan_traffiq.position import xy
from games.manhattan_traffiq.state import TraffiqState
from games.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**63)
PLAYERS = st.integers(min_value=2, max_value=4)


def _ours(state: object) -> TraffiqState:
    assert isinstance(state, TraffiqState)
    return state


def _rebuilt_placements(board: Board, pattern: str) -> list[tuple[int, int, int]]:
    """Every (x, y, rot) where ``pattern`` fits, from the placed tiles alone."""
    empty = {(x + dx, y + dy) for x, y in board.tiles for dx, dy in STEP} - board.tiles.keys()
    return [
        (x, y, rot)
        for x, y in sorted(empty)
        for rot, edges in distinct_rotations(pattern)
        if board.fits((x, y), edges)
    ]


def _rebuilt_public_map(s: TraffiqState) -> dict[str, object]:
    """The observation's map and score fields as they were built from scratch."""
    return {
        "tiles": [[x, y, p, r, rotate(p, r)] for x, y, p, r in s.board.placed],
        "spots": [xy(n) for n in sorted(s.board.spots)],
        "points": [s.points(seat) for seat in range(s.players)],
    }


def _check_kept_values(s: TraffiqState) -> None:
    board = s.board
    for pattern in sorted(ALL_PATTERNS):
        want = _rebuilt_placements(board, pattern)
        assert board.placements(pattern) == want
        assert board.can_place(pattern) == bool(want)
    seat = s.current_seat()
    obs = s.observation(0 if seat is None else seat)
    assert {k: obs[k] for k in ("tiles", "spots", "points")} == _rebuilt_public_map(s)
    for node in s.vehicles:  # a taxi may ride exactly when it has somewhere to go
        targets = taxi_targets(board.tiles, s.vehicles, board.spots, node)
        assert has_empty_neighbour(board.tiles, s.vehicles, board.spots, node) == bool(targets)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_kept_values_match_a_rebuild_at_every_decision(seed: int, players: int) -> None:
    s = _ours(GAME.new_game(players, seed))
    rng = Rng(seed)
    step = 0
    while not s.is_over():
        if step % 3 == 0:
            _check_kept_values(s)
        if step % 17 == 0:  # a clone and a loaded copy keep their own, equal, values
            copy = _ours(GAME.state_from_json(json.loads(json.dumps(s.to_json()))))
            _check_kept_values(copy)
            _check_kept_values(s.clone())
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        step += 1
    _check_kept_values(s)


def test_a_clone_placing_a_tile_leaves_the_original_as_it_was() -> None:
    s = _ours(GAME.new_game(2, 7))
    before = (s.observation(0), s.legal_actions(), {p: s.board.can_place(p) for p in ALL_PATTERNS})
    c = s.clone()
    (x, y, rot), pattern = c.board.placements(c.hands[0][0])[0], c.hands[0][0]
    c.board.place(x, y, pattern, rot)
    assert len(c.observation(0)["tiles"]) == len(before[0]["tiles"]) + 1
    assert s.observation(0) == before[0] and s.legal_actions() == before[1]
    assert {p: s.board.can_place(p) for p in ALL_PATTERNS} == before[2]
    _check_kept_values(s)
    _check_kept_values(c)


def test_an_observation_changed_by_its_reader_changes_nothing_else() -> None:
    s = _ours(GAME.new_game(3, 11))
    obs = s.observation(0)
    want = s.observation(0)
    obs["tiles"][0][0] = 99
    obs["tiles"].append([0, 0, "BBBB", 0, "BBBB"])
    obs["spots"].clear()
    assert s.observation(0) == want
    assert s.observation(1)["tiles"] == want["tiles"]
