"""Trishaw Frenzy: properties over many seeded random games (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.registry import get_game
from games.rng import Rng
from games.trishaw_frenzy import moves, scoring
from games.trishaw_frenzy.state import TrishawState

GAME = get_game("trishaw-frenzy")
seeds = st.integers(min_value=0, max_value=2**63)
player_counts = st.integers(min_value=1, max_value=4)
FAST = settings(max_examples=1000, deadline=None)


def _check_invariants(state: TrishawState) -> None:
    s = state.s
    count = 2 if s["solo"] else s["players"]
    # components are conserved: 9 tiles, 12 event cards, 12 route cards, one trishaw each
    assert sorted(t for t, _ in s["tiles"]) == list(range(9))
    assert all(0 <= o < 4 for _, o in s["tiles"])
    events = s["event_deck"] + s["event_discard"] + ([s["event"][0]] if s["event"] else [])
    assert sorted(events) == list(range(12))
    assert sorted(s["route_deck"] + s["route_discard"] + [s["route"][0]]) == list(range(12))
    assert len(s["pos"]) == count and all(0 <= c < 81 for c in s["pos"])
    assert (s["phase"] == "event") == (s["event"] is not None)
    if s["phase"] != "over":
        assert all(len(t) == s["round"] - 1 for t in s["tokens"])
        assert max(moves.progress(s)) < moves.LAST  # a finished round never lingers
        assert s["turn"] != moves.ai_trishaw(s)  # the AI never owes a decision
    assert all(b >= 0 for b in s["bonus"])


def _random_game(players: int, seed: int, check=None, options=None) -> tuple[TrishawState, list]:
    state = GAME.new_game(players, seed, options)
    rng = Rng(seed ^ 0x5EED)
    log = []
    while not state.is_over():
        legal = state.legal_actions()
        assert legal
        if check:
            check(state)
        i = rng.below(len(legal))
        log.append((i, state.apply(legal[i])))
        assert len(log) < 5000
    return state, log


@FAST
@given(players=player_counts, seed=seeds, carry=st.booleans())
def test_conservation_and_invariants_hold_all_game(players: int, seed: int, carry: bool) -> None:
    options = {"rotate_carries_trishaws": carry}
    state, log = _random_game(players, seed, check=_check_invariants, options=options)
    _check_invariants(state)
    res = state.result()
    s = state.s
    assert not s["capped"] and res.reason == "normal"
    assert all(len(t) == 3 for t in s["tokens"])
    # every round's VP are the finishing-position VP of that round's progress
    ends = [e for _, evs in log for e in evs if e["type"] == "round_end"]
    assert len(ends) == 3
    for e in ends:
        assert e["vp"] == scoring.round_vp(e["progress"])
        assert e["reason"] in ("finish", "events_exhausted")
    bonus_events = sum(1 for _, evs in log for e in evs if e["type"] == "vp")
    assert sum(s["bonus"]) == bonus_events
    if players > 1:
        assert res.scores == scoring.totals(s["tokens"], s["bonus"])
        assert res.ranks == scoring.final_ranks(s["tokens"], s["bonus"])


@FAST
@given(players=player_counts, seed=seeds)
def test_same_seed_and_choices_replay_identically(players: int, seed: int) -> None:
    a, log = _random_game(players, seed)
    b = GAME.new_game(players, seed)
    for i, events in log:
        assert b.apply(b.legal_actions()[i]) == events
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


@FAST
@given(players=player_counts, seed=seeds)
def test_json_round_trip_at_every_step(players: int, seed: int) -> None:
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    while not state.is_over():
        text = json.dumps(state.to_json())
        again = GAME.state_from_json(json.loads(text))
        assert json.dumps(again.to_json()) == text
        assert again.legal_actions() == state.legal_actions()
        assert again.observation(0) == state.observation(0)
        i = rng.below(len(state.legal_actions()))
        assert again.apply_index(i) == state.apply_index(i)
    assert json.dumps(again.to_json()) == json.dumps(state.to_json())


@FAST
@given(players=player_counts, seed=seeds, other=seeds)
def test_observations_do_not_depend_on_hidden_information(
    players: int, seed: int, other: int
) -> None:
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    while not state.is_over():
        for seat in range(players):
            twin = state.resample_hidden(seat, other)
            assert twin.observation(seat) == state.observation(seat)
            assert twin.legal_actions() == state.legal_actions()
            assert sorted(twin.s["event_deck"]) == sorted(state.s["event_deck"])
        obs = json.dumps(state.observation(state.current_seat()))
        assert "rng" not in obs and "event_deck" not in obs and "route_deck" not in obs
        state.apply_index(rng.below(len(state.legal_actions())))


def test_resampling_really_changes_the_hidden_order() -> None:
    state = GAME.new_game(3, 11)
    twins = {tuple(state.resample_hidden(0, k).s["event_deck"]) for k in range(10)}
    assert len(twins) > 1


def test_different_seeds_lay_different_maps() -> None:
    maps = {json.dumps(GAME.new_game(2, k).s["tiles"]) for k in range(20)}
    assert len(maps) == 20
