"""The findings of the engines' review against the rulebooks (issue 14), one test each, and
the round-end position engines keep for the replay viewer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.base import GameError
from games.registry import get_game

ROOT = Path(__file__).resolve().parents[2]


def _play_until(state: Any, stop: Any) -> Any:
    while not stop(state):
        state.apply(state.legal_actions()[0])
    return state


# ------------------------------------------------------------------ Tri*Area round 3


@pytest.mark.parametrize("seed", [3, 11, 2026])
def test_tri_area_round_three_opens_with_an_empty_table(seed: int) -> None:
    st = get_game("tri-area").new_game(4, seed)
    _play_until(st, lambda s: s.observation(0)["round"] == 3)
    seen_phases = set()
    while st.observation(0)["phase"] in ("lead_declaration", "sell"):
        for seat in range(4):
            obs = st.observation(seat)
            seen_phases.add(obs["phase"])
            assert obs["tricks"] == []
            assert obs["table"] == [None] * 4
            assert obs["values"] == [None] * 4
            assert obs["adopted"] is None
            assert obs["rightholders"] == [None, None]
            assert obs["built_square"] is None
        st.apply(st.legal_actions()[0])
    assert seen_phases == {"lead_declaration", "sell"}
    # and the first meeting of round 3 then fills the table as usual
    st.apply(st.legal_actions()[0])
    assert sum(c is not None for c in st.observation(0)["table"]) == 1


def test_tri_area_rules_mark_the_four_readings_as_interpretations() -> None:
    text = " ".join((ROOT / "games/tri_area/RULES.md").read_text().split())

    def marked(phrase: str) -> bool:
        # the label opens the sentence that states the reading
        return re.search(r"\*\*\[INTERP\]\*\* [^*]{0,80}" + phrase, text, re.I) is not None

    assert marked("stacking on your own building does not earn the additional block")
    assert marked("one player owning both .{0,40}tied tallest buildings collects")
    assert marked("after a shared 1st place the next player counts as 3rd")
    assert marked("the declarations come before the sale")
    assert not marked("the declarations come after the sale")


# ------------------------------------------------------------------ Manhattan TraffIQ scoring


def test_manhattan_summary_default_and_rules_agree_on_vehicle_count() -> None:
    game = get_game("manhattan-traffiq")
    default = {o.name: o.default for o in game.options}["scoring"]
    assert default == "vehicles"
    assert "most vehicles" in game.summary
    rules = " ".join((ROOT / "games/manhattan_traffiq/RULES.md").read_text().split())
    assert '| `scoring` | `"vehicles"` |' in rules
    assert "Whoever has the most vehicles on the streets at game end, wins." in rules


def test_manhattan_default_ranks_by_vehicles_then_points() -> None:
    from games.rng import Rng

    game = get_game("manhattan-traffiq")
    disagreements = 0
    for seed in range(60):
        st, rng = game.new_game(2, seed, {"immediate_win": False}), Rng(seed)
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])
        res = st.result()
        cars, pts = res.details["vehicles_on_map"], res.details["points"]
        assert res.scores == cars
        if cars[0] != cars[1]:
            assert (res.ranks[0] < res.ranks[1]) == (cars[0] > cars[1])
            disagreements += (pts[0] > pts[1]) != (cars[0] > cars[1]) and pts[0] != pts[1]
        elif pts[0] != pts[1]:  # equal vehicles: points break the tie
            assert (res.ranks[0] < res.ranks[1]) == (pts[0] > pts[1])
    assert disagreements >= 1  # some matches really rank differently from the points reading


# ------------------------------------------------------------------ validation on load


def _bad(slug: str, players: int, change: Any, seed: int = 5) -> str:
    game = get_game(slug)
    st = game.new_game(players, seed)
    for _ in range(12):
        st.apply(st.legal_actions()[0])
    data = st.to_json()
    game.state_from_json(data)  # the untouched state loads
    change(data)
    with pytest.raises(GameError) as info:
        game.state_from_json(data)
    message = str(info.value)
    assert message.startswith(f"{slug}: malformed state")
    return message


def test_trishaw_rejects_a_trishaw_off_the_board() -> None:
    msg = _bad("trishaw-frenzy", 3, lambda d: d["pos"].__setitem__(0, 500))
    assert "[500]" in msg and "off the 9x9 board" in msg


def test_trishaw_rejects_duplicate_event_cards() -> None:
    def dup(d: dict[str, Any]) -> None:
        d["event_deck"][0] = d["event_deck"][1]

    assert "event cards" in _bad("trishaw-frenzy", 2, dup)


def test_trishaw_rejects_a_missing_tile_and_a_bad_phase() -> None:
    assert "9 tiles" in _bad("trishaw-frenzy", 2, lambda d: d["tiles"][0].__setitem__(0, 1))
    assert "phase" in _bad("trishaw-frenzy", 2, lambda d: d.__setitem__("phase", "dance"))


def test_manhattan_rejects_a_vehicle_off_the_map() -> None:
    def off_map(d: dict[str, Any]) -> None:
        d["vehicles"].append([50, 50, 0, "taxi"])
        d["supply"][0][0] -= 1

    assert "off the map" in _bad("manhattan-traffiq", 2, off_map, seed=1)


def test_manhattan_rejects_two_vehicles_on_a_crossing_and_too_many_vehicles() -> None:
    def stack_up(d: dict[str, Any]) -> None:
        d["vehicles"] = [[1, 1, 0, "taxi"], [1, 1, 1, "truck"]]

    assert "two vehicles on the same crossing" in _bad("manhattan-traffiq", 2, stack_up, seed=1)
    msg = _bad("manhattan-traffiq", 3, lambda d: d["supply"][1].__setitem__(1, 9))
    assert "seat 1 has 0 trucks on the map and 9 in supply; it owns 2" in msg
    with pytest.raises(GameError, match="unknown phase 'x'"):
        data = get_game("manhattan-traffiq").new_game(2, 1).to_json()
        get_game("manhattan-traffiq").state_from_json({**data, "phase": "x"})


@pytest.mark.parametrize("slug", ["trishaw-frenzy", "manhattan-traffiq"])
def test_every_reachable_state_loads(slug: str) -> None:
    from games.rng import Rng

    game = get_game(slug)
    for seed in range(6):
        st = game.new_game(game.max_players, seed)
        rng = Rng(seed)
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])
            assert game.state_from_json(st.to_json()).to_json() == st.to_json()


# ------------------------------------------------------------------ the round-end position


@pytest.mark.parametrize(("slug", "players"), [("trnd", 3), ("tri-area", 4), ("trishaw-frenzy", 2)])
def test_round_end_position_is_the_settled_board_before_the_deal(slug: str, players: int) -> None:
    game = get_game(slug)
    st = game.new_game(players, 4)
    ends = 0
    while not st.is_over():
        before = st.to_json()
        events, kept = st.apply_keeping_round_end(st.legal_actions()[0])
        deal = [e for e in events if e["type"] == "round_start"]
        assert (kept is not None) == bool(deal)
        if kept is None:
            continue
        ends += 1
        assert any(e["type"] == "round_end" for e in events)
        assert kept != st.to_json() and kept != before
        loaded = game.state_from_json(kept) if slug != "tri-area" else None
        assert loaded is None or loaded.to_json() == kept
        round_key = "round"
        assert kept[round_key] == st.to_json()[round_key] - 1
        if slug == "tri-area":
            assert any(kept["board"]) and not any(st.to_json()["board"])
    assert ends >= 1
    # plain apply keeps nothing
    assert st.round_end_position is None
