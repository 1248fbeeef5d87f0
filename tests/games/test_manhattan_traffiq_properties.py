"""Manhattan TraffIQ: properties over many seeded random games (hypothesis picks the seeds).

Conservation of tiles and vehicles, legal positions only (colours match, vehicles on spots),
determinism, exact JSON round trip, and no leak of hidden tiles into observations.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.manhattan_traffiq import GAME
from games.manhattan_traffiq.board import STEP, is_spot
from games.manhattan_traffiq.components import CITY_TILES, START_TILES, VEHICLES
from games.manhattan_traffiq.state import TraffiqState
from games.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**63)
PLAYERS = st.integers(min_value=2, max_value=4)
FAST = settings(max_examples=600, deadline=None)


def _tile_count(s: TraffiqState) -> int:
    pending = 1 if s.tile is not None else 0
    return len(s.stack) + sum(map(len, s.hands)) + len(s.board.placed) + pending


def _check_invariants(s: TraffiqState) -> None:
    assert _tile_count(s) == sum(CITY_TILES.values()) + len(START_TILES)
    taxis, trucks = VEHICLES[s.players]
    for seat in range(s.players):
        mine = [k for owner, k in s.vehicles.values() if owner == seat]
        assert s.supply[seat][0] + mine.count("taxi") == taxis
        assert s.supply[seat][1] + mine.count("truck") == trucks
    tiles = s.board.tiles
    for node in s.vehicles:
        assert node in s.board.spots and is_spot(tiles, node)
    for (x, y), edges in tiles.items():
        for d, (dx, dy) in enumerate(STEP):
            nb = tiles.get((x + dx, y + dy))
            assert nb is None or nb[(d + 2) % 4] == edges[d], "colours must match"


def _playout(s: TraffiqState, seed: int, each=None) -> list[int]:
    rng, chosen = Rng(seed), []
    while not s.is_over():
        legal = s.legal_actions()
        assert legal and len(legal) < 400
        if each:
            each(s)
        i = rng.below(len(legal))
        chosen.append(i)
        events = s.apply(legal[i])
        assert all("type" in e for e in events)
        json.dumps(events)
    return chosen


@FAST
@given(seed=SEEDS, players=PLAYERS)
def test_conservation_and_legal_positions(seed: int, players: int) -> None:
    s = GAME.new_game(players, seed)
    _playout(s, seed, _check_invariants)
    _check_invariants(s)
    res = s.result()
    assert res.reason in ("normal", "all_vehicles_placed")
    if res.reason == "all_vehicles_placed":
        assert res.ranks[res.details["winner"]] == 1


@FAST
@given(seed=SEEDS, players=PLAYERS)
def test_determinism_and_round_trip(seed: int, players: int) -> None:
    a = GAME.new_game(players, seed)
    steps = [0]

    def roundtrip(s: TraffiqState) -> None:
        steps[0] += 1
        if steps[0] % 7:
            return
        text = json.dumps(s.to_json(), sort_keys=True)
        again = TraffiqState.from_json(json.loads(text))
        assert json.dumps(again.to_json(), sort_keys=True) == text
        assert again.legal_actions() == s.legal_actions()
        assert again.observation(s.current) == s.observation(s.current)
        clone = s.clone()
        assert json.dumps(clone.to_json(), sort_keys=True) == text

    chosen = _playout(a, seed, roundtrip)
    b = GAME.new_game(players, seed)
    for i in chosen:
        b.apply(b.legal_actions()[i])
    assert a.to_json() == b.to_json()
    assert a.result().to_json() == b.result().to_json()


@FAST
@given(seed=SEEDS, players=PLAYERS, other=SEEDS)
def test_no_leak_whatever_the_hidden_tiles(seed: int, players: int, other: int) -> None:
    s = GAME.new_game(players, seed)
    rng = Rng(seed)
    changed = False
    while not s.is_over():
        for seat in range(players):
            twin = s.resample_hidden(seat, other)
            assert twin.observation(seat) == s.observation(seat)
            assert twin.hands[seat] == s.hands[seat]
            if s.current == seat:
                assert twin.legal_actions() == s.legal_actions()
            changed |= twin.stack != s.stack or twin.hands != s.hands
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        if len(s.board.placed) > 12:
            break
    assert changed, "resampling never changed the hidden tiles"


def test_others_hands_and_stack_never_appear_in_an_observation() -> None:
    s = GAME.new_game(3, 11)
    obs = s.observation(0)
    assert obs["hand"] == s.hands[0]
    assert obs["hand_sizes"] == [2, 2, 2] and obs["stack"] == 38
    assert all(key not in obs for key in ("hands", "rng"))


def test_different_seeds_deal_differently() -> None:
    deals = {json.dumps(GAME.new_game(2, seed).to_json()["stack"]) for seed in range(20)}
    assert len(deals) == 20
