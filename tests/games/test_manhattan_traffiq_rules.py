"""Manhattan TraffIQ: every rule of the rulebook (and of our RULES.md readings) as an example.

Positions are built by editing a fresh state's JSON, so every test starts from a position the
engine itself accepts, then plays through the public interface only.
"""

from __future__ import annotations

import json

import pytest

from games.base import GameError, IllegalAction
from games.manhattan_traffiq import GAME
from games.manhattan_traffiq.components import CITY_TILES, VEHICLES
from games.manhattan_traffiq.state import TraffiqState


def grid(w: int, h: int, tile: str = "BBBB", skip: tuple = ()) -> list[list]:
    return [[x, y, tile, 0] for y in range(h) for x in range(w) if (x, y) not in skip]


def make(
    players: int = 2,
    tiles: list | None = None,
    vehicles: list | None = None,
    hands: list | None = None,
    supply: list | None = None,
    stack: list | None = None,
    current: int = 0,
    **options,
) -> TraffiqState:
    data = GAME.new_game(players, 1, options).to_json()
    if tiles is not None:
        data["tiles"] = tiles
    if vehicles is not None:
        data["vehicles"] = vehicles
    if hands is not None:
        data["hands"] = hands
    if supply is not None:
        data["supply"] = supply
    if stack is not None:
        data["stack"] = stack
    data["current"] = current
    return TraffiqState.from_json(data)


def frozen(state: TraffiqState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def vehicles_of(state: TraffiqState) -> dict:
    return {(x, y): (s, k) for x, y, s, k in state.to_json()["vehicles"]}


def place(state: TraffiqState, tile: str, x: int, y: int, rot: int = 0) -> list:
    state.apply({"type": "place", "tile": tile})
    return state.apply({"type": "place_at", "x": x, "y": y, "rot": rot})


# ---------------------------------------------------------------- setup


def test_setup_gives_start_block_hands_and_vehicles() -> None:
    for players in (2, 3, 4):
        s = GAME.new_game(players, 3)
        d = s.to_json()
        assert [t[:2] for t in d["tiles"]] == [[0, 0], [1, 0], [0, 1], [1, 1]]
        assert all(len(h) == 2 for h in d["hands"])
        assert len(d["stack"]) == 44 - 2 * players
        assert d["supply"] == [list(VEHICLES[players])] * players
        assert s.observation(0)["spots"] == [[1, 1]]  # the start block's crossing, empty
        assert s.current_seat() == 0


def test_tile_set_has_44_city_tiles() -> None:
    assert sum(CITY_TILES.values()) == 44


# ------------------------------------------------------ 1. attach city tile


def test_tile_must_match_one_neighbour_in_some_rotations() -> None:
    s = make(hands=[["GBBB"], ["BBBB"]])
    s.apply({"type": "place", "tile": "GBBB"})
    rots = {a["rot"] for a in s.legal_actions() if (a["x"], a["y"]) == (2, 0)}
    assert rots == {0, 1, 2}  # rot 3 would show green to the beige start tile
    with pytest.raises(IllegalAction):
        s.apply({"type": "place_at", "x": 2, "y": 0, "rot": 3})


def test_tile_must_match_two_neighbours() -> None:
    s = make(tiles=[*grid(2, 2), [2, 0, "RRRR", 0]], hands=[["RRBB"], []])
    s.apply({"type": "place", "tile": "RRBB"})
    at = [a["rot"] for a in s.legal_actions() if (a["x"], a["y"]) == (2, 1)]
    assert at == [0]  # north must be red (under RRRR), west beige (beside the start block)


def test_hole_must_match_all_four_sides() -> None:
    ring = grid(3, 3, skip=((1, 1),))
    ring[1] = [1, 0, "GBBB", 2]  # the tile north of the hole shows green southwards
    s = make(tiles=ring, hands=[["GBBB", "BBBB"], []])
    s.apply({"type": "place", "tile": "GBBB"})
    assert {"type": "place_at", "x": 1, "y": 1, "rot": 0} in s.legal_actions()
    assert not [a for a in s.legal_actions() if (a["x"], a["y"]) == (1, 1) and a["rot"] != 0]
    s2 = make(tiles=ring, hands=[["BBBB"], []])
    s2.apply({"type": "place", "tile": "BBBB"})
    assert all((a["x"], a["y"]) != (1, 1) for a in s2.legal_actions())


def test_tile_that_fits_nowhere_is_not_offered_and_stays_in_hand() -> None:
    s = make(hands=[["RRRR"], []])  # only beige edges face outwards
    assert {"type": "place", "tile": "RRRR"} not in s.legal_actions()
    with pytest.raises(IllegalAction):
        s.apply({"type": "place", "tile": "RRRR"})
    s.apply({"type": "draw"})
    assert "RRRR" in s.observation(0)["hand"]


def test_placing_a_tile_not_in_hand_is_illegal() -> None:
    s = make(hands=[["BBBB"], ["GBBB"]])
    before = frozen(s)
    with pytest.raises(IllegalAction, match="not legal"):
        s.apply({"type": "place", "tile": "GBBB"})
    assert frozen(s) == before


def test_completed_square_offers_taxi_truck_or_nothing() -> None:
    s = make(tiles=[*grid(2, 2), [2, 0, "BBBB", 0]], hands=[["BBBB"], []])
    events = place(s, "BBBB", 2, 1)
    assert events[-1]["completed"] == [[2, 1]]
    assert s.observation(0)["phase"] == "vehicle"
    assert [a["kind"] for a in s.legal_actions()] == ["taxi", "truck", "none"]
    s.apply({"type": "vehicle", "node": [2, 1], "kind": "truck"})
    assert vehicles_of(s) == {(2, 1): (0, "truck")}
    taxis, trucks = VEHICLES[2]
    assert s.observation(1)["supply"][0] == {"taxi": taxis, "truck": trucks - 1}
    assert s.observation(0)["points"] == [2, 0]


def test_vehicle_may_be_declined_and_kinds_follow_supply() -> None:
    s = make(tiles=[*grid(2, 2), [2, 0, "BBBB", 0]], hands=[["BBBB"], []], supply=[[0, 2], [8, 3]])
    place(s, "BBBB", 2, 1)
    assert [a["kind"] for a in s.legal_actions()] == ["truck", "none"]
    s.apply({"type": "vehicle", "node": [2, 1], "kind": "none"})
    assert vehicles_of(s) == {}
    assert s.observation(0)["phase"] == "action"


def test_one_tile_can_complete_four_squares() -> None:
    s = make(tiles=grid(3, 3, skip=((1, 1),)), hands=[["BBBB"], []])
    events = place(s, "BBBB", 1, 1)
    assert events[-1]["completed"] == [[1, 1], [1, 2], [2, 1], [2, 2]]
    for node in ([1, 1], [1, 2], [2, 1], [2, 2]):
        assert s.observation(0)["pending"]["node"] == node
        s.apply({"type": "vehicle", "node": node, "kind": "taxi"})
    assert len(vehicles_of(s)) == 4


def _park_block() -> list[list]:
    # Four park corners around node (1, 1): all four borders there are green.
    return [[0, 0, "GGBB", 1], [1, 0, "GGBB", 2], [0, 1, "GGBB", 0]]


def test_square_without_street_gives_no_vehicle() -> None:
    s = make(tiles=_park_block(), hands=[["GGBB"], []])
    events = place(s, "GGBB", 1, 1, rot=3)
    assert events[-1]["completed"] == []
    assert s.observation(0)["phase"] == "action"
    assert [1, 1] not in s.observation(0)["spots"]


# ------------------------------------------------------------ 2a. taxi ride


def _avenue(w: int = 6) -> list[list]:
    return grid(w, 2)  # crossings (1..w-1, 1) on one east-west road; row 0 and 2 are edges


def test_taxi_rides_through_empty_crossings_only() -> None:
    s = make(tiles=_avenue(), vehicles=[[1, 1, 0, "taxi"], [4, 1, 1, "taxi"]])
    s.apply({"type": "taxi", "from": [1, 1]})
    assert s.legal_actions() == [
        {"type": "taxi_to", "to": [2, 1]},
        {"type": "taxi_to", "to": [3, 1]},
    ]
    s.apply({"type": "taxi_to", "to": [3, 1]})
    assert vehicles_of(s)[(3, 1)] == (0, "taxi")


def test_own_vehicle_blocks_a_taxi_and_taxi_cannot_stay() -> None:
    s = make(tiles=_avenue(), vehicles=[[1, 1, 0, "taxi"], [2, 1, 0, "truck"]])
    assert not [a for a in s.legal_actions() if a["type"] == "taxi"]
    s2 = make(tiles=_avenue(), vehicles=[[2, 1, 0, "taxi"], [3, 1, 1, "taxi"]])
    s2.apply({"type": "taxi", "from": [2, 1]})
    assert s2.legal_actions() == [{"type": "taxi_to", "to": [1, 1]}]


def test_taxi_cannot_cross_a_park_border() -> None:
    tiles = _avenue()
    tiles[2] = [2, 0, "GBBB", 2]  # south edge green
    tiles[8] = [2, 1, "GBBB", 0]  # north edge green: no street from (2,1) to (3,1)
    s = make(tiles=tiles, vehicles=[[1, 1, 0, "taxi"]])
    s.apply({"type": "taxi", "from": [1, 1]})
    assert s.legal_actions() == [{"type": "taxi_to", "to": [2, 1]}]


def test_only_one_taxi_ride_per_turn() -> None:
    s = make(tiles=_avenue(), vehicles=[[1, 1, 0, "taxi"], [5, 1, 0, "taxi"]])
    s.apply({"type": "taxi", "from": [1, 1]})
    s.apply({"type": "taxi_to", "to": [2, 1]})
    assert not [a for a in s.legal_actions() if a["type"] == "taxi"]
    assert s.current_seat() == 0 and s.observation(0)["used"]["actions"] == 1


# --------------------------------------------------------- 2b. truck delivery


def test_truck_moves_one_street_to_an_empty_crossing() -> None:
    s = make(tiles=_avenue(), vehicles=[[2, 1, 0, "truck"]])
    trucks = [a for a in s.legal_actions() if a["type"] == "truck"]
    assert trucks == [
        {"type": "truck", "from": [2, 1], "to": [1, 1]},
        {"type": "truck", "from": [2, 1], "to": [3, 1]},
    ]
    s.apply(trucks[1])
    assert vehicles_of(s) == {(3, 1): (0, "truck")}
    assert not [a for a in s.legal_actions() if a["type"] == "truck"]  # one per turn


def test_truck_blocked_by_any_vehicle_and_map_edge() -> None:
    s = make(tiles=_avenue(), vehicles=[[1, 1, 0, "truck"], [2, 1, 1, "taxi"]])
    assert not [a for a in s.legal_actions() if a["type"] == "truck"]  # (0,1) is the edge


# ----------------------------------------------------------------- 3. draw


def test_draw_is_the_last_action_and_turn_has_two_actions() -> None:
    s = make(tiles=_avenue(), vehicles=[[1, 1, 0, "taxi"]], hands=[["BBBB"], []])
    s.apply({"type": "draw"})
    assert s.legal_actions() == [{"type": "draw"}, {"type": "end_turn"}]
    s.apply({"type": "draw"})
    assert s.current_seat() == 1  # two actions: the turn passed by itself
    assert s.observation(0)["hand_sizes"] == [3, 0]


def test_no_draw_from_an_empty_stack() -> None:
    s = make(stack=[], hands=[["RRRR"], []])
    assert s.legal_actions() == [{"type": "end_turn"}]  # nothing to do: the turn passes


def test_end_turn_only_after_an_action() -> None:
    s = make(hands=[["BBBB"], []])
    assert {"type": "end_turn"} not in s.legal_actions()
    s.apply({"type": "draw"})
    assert {"type": "end_turn"} in s.legal_actions()


# ---------------------------------------------------------------- 4. compete


def test_truck_counts_two_and_each_rival_is_compared_alone() -> None:
    # Road y=1 from x=0 to 7. Seat 0 brings a truck (2); seat 1 has one taxi (1) and
    # loses it; seat 2 has two taxis (2): a tie, nothing removed.
    s = make(
        players=3,
        tiles=grid(7, 2),
        vehicles=[[1, 1, 0, "truck"], [4, 1, 1, "taxi"], [5, 1, 2, "taxi"], [6, 1, 2, "taxi"]],
    )
    s.apply({"type": "truck", "from": [1, 1], "to": [2, 1]})
    assert s.observation(0)["phase"] == "compete"
    assert s.legal_actions() == [
        {"type": "compete", "roads": []},
        {"type": "compete", "roads": ["h"]},
    ]
    events = s.apply({"type": "compete", "roads": ["h"]})
    assert events[0]["strengths"] == [2, 1, 2]
    assert events[0]["removed"] == [{"seat": 1, "vehicles": [[4, 1, "taxi"]]}]
    assert set(vehicles_of(s)) == {(2, 1), (5, 1), (6, 1)}
    assert s.observation(0)["supply"][1]["taxi"] == VEHICLES[3][0] + 1


def test_several_losers_lose_all_their_vehicles_on_the_road() -> None:
    s = make(
        players=3,
        tiles=grid(7, 2),
        vehicles=[[1, 1, 0, "taxi"], [3, 1, 0, "truck"], [5, 1, 1, "taxi"], [6, 1, 2, "truck"]],
    )
    s.apply({"type": "taxi", "from": [1, 1]})
    s.apply({"type": "taxi_to", "to": [2, 1]})
    s.apply({"type": "compete", "roads": ["h"]})
    assert vehicles_of(s) == {(2, 1): (0, "taxi"), (3, 1): (0, "truck")}
    sup = s.observation(0)["supply"]
    assert sup[1]["taxi"] == VEHICLES[3][0] + 1 and sup[2]["truck"] == VEHICLES[3][1] + 1


def test_tie_removes_nothing_and_asks_nothing() -> None:
    s = make(tiles=_avenue(), vehicles=[[1, 1, 0, "taxi"], [4, 1, 1, "taxi"]])
    s.apply({"type": "taxi", "from": [1, 1]})
    s.apply({"type": "taxi_to", "to": [2, 1]})
    assert s.observation(0)["phase"] == "action"  # 1 against 1: no compete decision
    assert len(vehicles_of(s)) == 2


def _crossing() -> TraffiqState:
    # 4x4 block: crossing (2,2) has a road each way. Seat 0's truck comes from (1,2);
    # seat 1 has a taxi on each road.
    return make(
        tiles=grid(4, 4), vehicles=[[1, 2, 0, "truck"], [2, 1, 1, "taxi"], [3, 2, 1, "taxi"]]
    )


def test_compete_on_both_roads_or_one_or_none() -> None:
    s = _crossing()
    s.apply({"type": "truck", "from": [1, 2], "to": [2, 2]})
    assert [a["roads"] for a in s.legal_actions()] == [[], ["h"], ["v"], ["h", "v"]]
    assert s.observation(1)["pending"]["roads"]["v"] == [[2, 0], [2, 1], [2, 2], [2, 3], [2, 4]]
    one = s.clone()
    one.apply({"type": "compete", "roads": ["v"]})
    assert set(vehicles_of(one)) == {(2, 2), (3, 2)}
    both = s.clone()
    both.apply({"type": "compete", "roads": ["h", "v"]})
    assert set(vehicles_of(both)) == {(2, 2)}
    none = s.clone()
    events = none.apply({"type": "compete", "roads": []})
    assert events[0]["type"] == "compete_declined" and len(vehicles_of(none)) == 3


def test_street_corner_has_one_road() -> None:
    tiles = _avenue(4)
    # Green borders between columns 1 and 2 (both rows): the crossing (2,1) has no
    # north-south street, only the east-west road.
    for index, x, y, rot in ((1, 1, 0, 1), (2, 2, 0, 3), (5, 1, 1, 1), (6, 2, 1, 3)):
        tiles[index] = [x, y, "GBBB", rot]
    s = make(tiles=tiles, vehicles=[[1, 1, 0, "truck"], [3, 1, 1, "taxi"]])
    s.apply({"type": "truck", "from": [1, 1], "to": [2, 1]})
    assert list(s.observation(0)["pending"]["roads"]) == ["h"]


def test_removed_vehicles_can_be_placed_again() -> None:
    s = make(
        tiles=[*grid(4, 2), [4, 0, "BBBB", 0]],
        vehicles=[[1, 1, 0, "truck"], [3, 1, 1, "taxi"]],
        hands=[["BBBB"], ["BBBB"]],
        supply=[[8, 2], [0, 3]],
    )
    s.apply({"type": "truck", "from": [1, 1], "to": [2, 1]})
    s.apply({"type": "compete", "roads": ["h"]})
    s.apply({"type": "end_turn"})
    assert s.observation(1)["supply"][1] == {"taxi": 1, "truck": 3}
    place(s, "BBBB", 4, 1)
    assert {"type": "vehicle", "node": [4, 1], "kind": "taxi"} in s.legal_actions()


def test_placed_vehicle_competes_too() -> None:
    s = make(
        tiles=[*grid(4, 2), [4, 0, "BBBB", 0]], vehicles=[[3, 1, 1, "taxi"]], hands=[["BBBB"], []]
    )
    place(s, "BBBB", 4, 1)
    s.apply({"type": "vehicle", "node": [4, 1], "kind": "truck"})
    assert s.observation(0)["phase"] == "compete"
    s.apply({"type": "compete", "roads": ["h"]})
    assert vehicles_of(s) == {(4, 1): (0, "truck")}


# ------------------------------------------------------------------- end


def test_all_vehicles_on_the_map_wins_at_once() -> None:
    s = make(
        tiles=[*grid(2, 3), [2, 0, "BBBB", 0]],
        hands=[["BBBB"], []],
        supply=[[0, 1], [5, 0]],
        vehicles=[[1, 1, 1, "truck"], [1, 2, 1, "truck"]],
    )
    place(s, "BBBB", 2, 1)
    events = s.apply({"type": "vehicle", "node": [2, 1], "kind": "truck"})
    assert s.is_over() and s.current_seat() is None
    assert events[-1]["type"] == "game_end"
    res = s.result()
    assert res.reason == "all_vehicles_placed"
    assert res.ranks == [1, 2] and res.scores == [1, 2]  # rank 1 despite fewer vehicles


def test_no_immediate_win_when_option_off() -> None:
    s = make(
        tiles=[*grid(2, 2), [2, 0, "BBBB", 0]],
        hands=[["BBBB"], []],
        supply=[[0, 1], [5, 0]],
        immediate_win=False,
    )
    place(s, "BBBB", 2, 1)
    s.apply({"type": "vehicle", "node": [2, 1], "kind": "truck"})
    assert not s.is_over()


def test_last_draw_gives_everyone_one_more_turn() -> None:
    s = make(players=3, stack=["BBBB"], hands=[[], [], []], current=1)
    events = s.apply({"type": "draw"})
    s.apply({"type": "end_turn"})
    assert s.observation(0)["final_round"] is True
    seats = []
    while not s.is_over():
        if not seats or s.observation(0)["turn"] != seats[-1][0]:
            seats.append((s.observation(0)["turn"], s.current_seat()))
        legal = s.legal_actions()
        s.apply({"type": "end_turn"} if {"type": "end_turn"} in legal else legal[0])
    assert [seat for _, seat in seats] == [2, 0, 1]
    assert s.result().reason == "normal"
    assert events[0] == {"type": "tile_drawn", "seat": 1, "stack_left": 0}


def test_tie_at_the_end_is_shared_and_vehicle_count_breaks_points_ties() -> None:
    end = {"stack": [], "hands": [[], [], []], "players": 3, "scoring": "points"}
    # Every crossing is taken, so no ride is possible and each turn can only end.
    tie = make(
        vehicles=[[1, 1, 0, "truck"], [2, 1, 1, "truck"], [3, 1, 2, "taxi"], [4, 1, 2, "taxi"]],
        tiles=_avenue(5),
        **end,
    )
    tie.apply({"type": "end_turn"})  # stack already empty: final round of 3 turns
    for _ in range(3):
        tie.apply({"type": "end_turn"})
    res = tie.result()
    assert res.scores == [2, 2, 2]
    assert res.ranks == [2, 2, 1]  # seat 2: same points with more vehicles
    s = make(vehicles=[[1, 1, 0, "truck"], [2, 1, 1, "truck"]], tiles=_avenue(3), **end)
    for _ in range(4):
        s.apply({"type": "end_turn"})
    assert s.result().ranks == [1, 1, 3]


def test_scoring_by_vehicle_count_option() -> None:
    s = make(
        players=2,
        stack=[],
        hands=[[], []],
        tiles=_avenue(4),
        scoring="vehicles",
        vehicles=[[1, 1, 0, "truck"], [2, 1, 1, "taxi"], [3, 1, 1, "taxi"]],
    )
    for _ in range(3):
        s.apply({"type": "end_turn"})
    res = s.result()
    assert res.scores == [1, 2] and res.ranks == [2, 1]


def test_turn_limit_ends_a_game_that_never_draws() -> None:
    s = make(max_turns=5)
    while not s.is_over():
        legal = s.legal_actions()
        s.apply(next((a for a in legal if a["type"] != "draw"), legal[0]))
    assert s.result().reason == "turn_limit"


# -------------------------------------------------------------- bad input


@pytest.mark.parametrize("players", [0, 1, 5, "2", True, None])
def test_wrong_player_count(players: object) -> None:
    with pytest.raises(GameError, match="player"):
        GAME.new_game(players, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options", [{"colour": 1}, {"scoring": "money"}, {"max_turns": 0}, {"immediate_win": "yes"}]
)
def test_bad_options(options: dict) -> None:
    with pytest.raises(GameError):
        GAME.new_game(2, 1, options)


def test_bad_state_json_and_seat_are_clear_errors() -> None:
    with pytest.raises(GameError, match="malformed"):
        TraffiqState.from_json({"players": 2})
    data = GAME.new_game(2, 1).to_json()
    data["stack"][0] = "XXXX"
    with pytest.raises(GameError, match="unknown tile"):
        TraffiqState.from_json(data)
    with pytest.raises(GameError, match="seat"):
        GAME.new_game(2, 1).observation(2)
    with pytest.raises(GameError, match="not over"):
        GAME.new_game(2, 1).result()


def test_illegal_actions_in_every_phase_leave_state_untouched() -> None:
    s = _crossing()
    bad = [
        {"type": "draw", "extra": 1},
        {"type": "compete", "roads": ["v", "h"]},
        {"type": "taxi_to", "to": [9, 9]},
        {"type": "vehicle", "kind": "taxi"},
        "draw",
    ]
    for step in ({"type": "truck", "from": [1, 2], "to": [2, 2]}, None):
        before = frozen(s)
        for action in bad:
            with pytest.raises(IllegalAction):
                s.apply(action)
        assert frozen(s) == before
        if step:
            s.apply(step)
