"""Manhattan TraffIQ built-in bots: the greedy bot's choices and its edge over random."""

from __future__ import annotations

from games.manhattan_traffiq import BOTS, GAME
from games.manhattan_traffiq.state import TraffiqState
from games.simulate import win_share


def _bot(seat: int = 0, players: int = 2):
    return BOTS["greedy"](seat, players, GAME.check_options({}), 5)


def _state(**changes) -> TraffiqState:
    data = GAME.new_game(changes.pop("players", 2), 1).to_json()
    data.update(changes)
    return TraffiqState.from_json(data)


def _choose(state: TraffiqState) -> dict:
    legal = state.legal_actions()
    return legal[_bot(state.current, state.players).act(state.observation(state.current), legal)]


def test_greedy_places_the_tile_that_completes_a_square() -> None:
    tiles = [[x, y, "BBBB", 0] for y in range(2) for x in range(2)] + [[2, 0, "BBBB", 0]]
    s = _state(tiles=tiles, hands=[["BBBB"], []])
    assert _choose(s) == {"type": "place", "tile": "BBBB"}
    s.apply({"type": "place", "tile": "BBBB"})
    choice = _choose(s)
    assert (choice["x"], choice["y"]) == (2, 1)  # the only cell completing a crossing
    s.apply(choice)
    assert _choose(s)["kind"] == "truck"  # worth 2 and stronger


def test_greedy_contests_every_road_it_can() -> None:
    tiles = [[x, y, "BBBB", 0] for y in range(4) for x in range(4)]
    s = _state(tiles=tiles, vehicles=[[1, 2, 0, "truck"], [2, 1, 1, "taxi"], [3, 2, 1, "taxi"]])
    s.apply({"type": "truck", "from": [1, 2], "to": [2, 2]})
    assert _choose(s) == {"type": "compete", "roads": ["h", "v"]}


def test_greedy_rides_to_knock_a_rival_off_and_draws_otherwise() -> None:
    tiles = [[x, y, "BBBB", 0] for y in range(2) for x in range(6)]
    s = _state(tiles=tiles, vehicles=[[1, 1, 0, "truck"], [4, 1, 1, "taxi"]], hands=[[], []])
    assert _choose(s) == {"type": "truck", "from": [1, 1], "to": [2, 1]}
    quiet = _state(tiles=tiles, vehicles=[[1, 1, 0, "taxi"]], hands=[[], []])
    assert _choose(quiet) == {"type": "draw"}


def test_greedy_beats_random() -> None:
    # 1,000 matches per player count are in RULES.md; a small sample keeps this test fast.
    for players in (2, 4):
        share, low, _ = win_share("manhattan-traffiq", "greedy", "random", players, 40, seed=3)
        assert low > 0.7, (players, share)


def test_render_text_draws_map_vehicles_and_seats() -> None:
    from games.manhattan_traffiq.render import render_text

    tiles = [[x, y, "BBBB", 0] for y in range(2) for x in range(3)]
    tiles[1] = [1, 0, "GBBB", 2]  # a park border between tiles (1,0) and (1,1)
    tiles[4] = [1, 1, "GBBB", 0]
    s = _state(tiles=tiles, vehicles=[[1, 1, 0, "taxi"], [2, 1, 1, "truck"]])
    text = render_text(s.to_json())
    rows = text.splitlines()
    assert rows[0] == "origin x=0 y=0"
    # The middle node row: seat 0's taxi, the park border, seat 1's truck.
    assert rows[3] == "+---agggB---+"
    assert rows[1] == "+---+---+---+"  # the map's north edge: corners, no crossing
    assert "seat 1 (b/B): 2 pts" in text and "seat 0 to play" in text
