"""TRND properties over many seeded random games (hypothesis): conservation, determinism,
JSON round trip, no leak, refused actions leave no trace."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.registry import get_game
from games.rng import Rng
from games.trnd import cards as C
from games.trnd.positions import card_census
from games.trnd.state import TrndState

GAME = get_game("trnd")
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**64 - 1)
player_counts = st.integers(min_value=3, max_value=5)


def dump(state: TrndState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def random_steps(state: TrndState, rng: Rng, steps: int):
    """Yield (events) after each random decision, for at most ``steps`` decisions."""
    for _ in range(steps):
        if state.is_over():
            return
        legal = state.legal_actions()
        yield state.apply(legal[rng.below(len(legal))])


@SETTINGS
@given(seed=seeds, players=player_counts)
def test_cards_conserved_and_invariants_hold(seed: int, players: int) -> None:
    state = GAME.new_game(players, seed)
    rng = Rng(seed ^ 0x5EED)
    for events in random_steps(state, rng, 500):
        json.dumps(events)
        assert all("type" in e for e in events)
        assert card_census(state) == [C.COPIES] * 9
        if state.is_over():
            break
        obs = state.observation(state.current_seat())
        assert obs["hand_sizes"] == [sum(h) for h in state.hands]
        empty_slots = obs["market"].count(None)
        assert empty_slots == (1 if obs["phase"] == "discard" else 0)
        assert obs["draw_pile"] >= 1  # a turn always starts with a card to draw or refill
        for seat, out in enumerate(state.out):
            if out is not None:
                assert sum(state.hands[seat]) == 0 and seat != state.current_seat()
        assert sum(o is None for o in state.out) >= 2
        assert all(
            0 <= k <= h
            for kn, hd in zip(state.known, state.hands, strict=True)
            for k, h in zip(kn, hd, strict=True)
        )


@SETTINGS
@given(seed=seeds, players=player_counts)
def test_determinism_and_json_round_trip(seed: int, players: int) -> None:
    a = GAME.new_game(players, seed)
    b = GAME.new_game(players, seed)
    assert dump(a) == dump(b)
    rng = Rng(seed)
    for step in range(400):
        if a.is_over():
            break
        legal = a.legal_actions()
        choice = legal[rng.below(len(legal))]
        if step % 7 == 0:
            again = TrndState.from_json(json.loads(json.dumps(a.to_json())))
            assert dump(again) == dump(a)
            assert again.legal_actions() == legal
            assert again.observation(a.current_seat()) == a.observation(a.current_seat())
        assert a.apply(choice) == b.apply(json.loads(json.dumps(choice)))
        assert dump(a) == dump(b)


@SETTINGS
@given(seed=seeds, players=player_counts, resample_seed=seeds)
def test_no_leak_resample_keeps_every_observation(
    seed: int, players: int, resample_seed: int
) -> None:
    state = GAME.new_game(players, seed)
    rng = Rng(resample_seed)
    changed = 0
    for step, _ in enumerate(random_steps(state, rng, 300)):
        if state.is_over() or step % 13:
            continue
        for seat in range(players):
            other = state.resample_hidden(seat, rng.next64())
            assert other.observation(seat) == state.observation(seat)
            assert card_census(other) == [C.COPIES] * 9
            assert other.hands[seat] == state.hands[seat]
            for s in range(players):  # publicly taken cards stay with their holder
                assert all(o >= k for o, k in zip(other.hands[s], state.known[s], strict=True))
            if seat == state.current_seat():
                assert other.legal_actions() == state.legal_actions()
            changed += other.deck != state.deck
    assert changed > 0  # the resample really redraws the hidden cards


@SETTINGS
@given(
    seed=seeds,
    junk=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda kids: (
            st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3)
        ),
        max_leaves=6,
    ),
)
def test_anything_not_legal_is_refused_without_trace(seed: int, junk: object) -> None:
    state = GAME.new_game(3, seed)
    rng = Rng(seed)
    for _ in random_steps(state, rng, rng.below(30)):
        pass
    for action in (
        junk,
        {"type": "take", "slot": junk},
        {"type": "discard", "card": junk, "count": 1},
    ):
        if action in state.legal_actions():
            continue
        before = dump(state)
        try:
            state.apply(action)
        except IllegalAction as exc:
            assert str(exc).startswith("trnd:")
        else:
            raise AssertionError(f"accepted {action!r}")
        assert dump(state) == before


def test_random_games_reach_the_round_cap_with_valid_ranks() -> None:
    for players in (3, 4, 5):
        state = GAME.new_game(players, 7, {"max_rounds": 12})
        rng = Rng(players)
        rounds = 0
        for events in random_steps(state, rng, 100_000):
            rounds += sum(e["type"] == "round_end" for e in events)
        assert state.is_over() and rounds == 12
        res = state.result()
        assert res.reason in ("round_limit", "normal")
        assert sorted(res.ranks) == list(range(1, players + 1))  # the tie-break is strict
        order = sorted(range(players), key=lambda s: res.ranks[s])
        assert [res.scores[s] for s in order] == sorted(res.scores, reverse=True)
