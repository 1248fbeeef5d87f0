"""TRND rules: the rulebook's worked examples and the edge cases of our reading (RULES.md)."""

from __future__ import annotations

import json

import pytest

from games.base import GameError, IllegalAction
from games.registry import get_game
from games.trnd import cards as C
from games.trnd.positions import build, card_census
from games.trnd.rules import can_discard, discard_choices

GAME = get_game("trnd")


def discard(card: str, count: int) -> dict:
    return {"type": "discard", "card": card, "count": count}


def take(slot: int) -> dict:
    return {"type": "take", "slot": slot}


def types(evs: list[dict]) -> list[str]:
    return [e["type"] for e in evs]


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize(
    ("players", "dealt", "target", "pile"), [(3, 10, 100, 51), (4, 9, 81, 45), (5, 8, 64, 41)]
)
def test_setup_table(players: int, dealt: int, target: int, pile: int) -> None:
    s = GAME.new_game(players, seed=3)
    obs = s.observation(0)
    assert obs["hand_sizes"] == [dealt] * players
    assert obs["target"] == target
    assert obs["draw_pile"] == pile
    assert len(obs["market"]) == 8 and None not in obs["market"]
    assert len(obs["discard_pile"]) == 1
    assert s.current_seat() == 0 and obs["start_seat"] == 0
    assert card_census(s) == [10] * 9


@pytest.mark.parametrize("players", [1, 2, 6])
def test_wrong_player_counts_rejected(players: int) -> None:
    with pytest.raises(GameError, match="3 to 5 players"):
        GAME.new_game(players, 1)


def test_options_checked() -> None:
    with pytest.raises(GameError, match="unknown option"):
        GAME.new_game(3, 1, {"target": 120})
    with pytest.raises(GameError, match="only raise"):
        GAME.new_game(4, 1, {"target_score": 50})
    with pytest.raises(GameError, match="scoring"):
        GAME.new_game(3, 1, {"scoring": "cubed"})
    with pytest.raises(GameError, match="max_rounds"):
        GAME.new_game(3, 1, {"max_rounds": 0})
    assert GAME.new_game(4, 1, {"target_score": 150}).observation(0)["target"] == 150


# ------------------------------------------------- the rulebook's discard table


TABLE_HAND = {"white-sling": 1, "black-ant": 3, "red-sling": 2, "white-ant": 1, "black-sling": 1}


@pytest.mark.parametrize(
    ("action", "legal"),
    [
        (discard("white-sling", 1), True),  # matches type (sling)
        (discard("black-ant", 3), True),  # identical set, matches colour (black)
        (discard("red-sling", 2), True),  # identical set, matches type (sling)
        (discard("white-ant", 1), False),  # matches nothing
    ],
)
def test_rulebook_discard_table(action: dict, legal: bool) -> None:
    s = build([TABLE_HAND, {"red-shell": 10}, {"white-shell": 10}], top="black-sling")
    s.apply(take(0))
    before = json.dumps(s.to_json(), sort_keys=True)
    assert (action in s.legal_actions()) is legal
    if legal:
        s.apply(action)
        assert s.observation(0)["discard_top"] == action["card"]
        assert len(s.observation(0)["discard_pile"]) == 1 + action["count"]
    else:
        with pytest.raises(IllegalAction):
            s.apply(action)
        assert json.dumps(s.to_json(), sort_keys=True) == before


def test_rulebook_table_never_mix_types() -> None:
    """Red Sling + Black Sling share the style but are two types: no action discards both."""
    s = build([TABLE_HAND, {"red-shell": 10}, {"white-shell": 10}], top="black-sling")
    s.apply(take(0))
    for a in s.legal_actions():
        assert set(a) == {"type", "card", "count"}  # one card type per discard, always
    for mixed in (
        {"type": "discard", "cards": ["red-sling", "black-sling"]},
        {"type": "discard", "card": ["red-sling", "black-sling"], "count": 2},
        discard("red-sling", 3),
    ):  # more copies than held
        with pytest.raises(IllegalAction):
            s.apply(mixed)


def test_discard_choices_pure_function() -> None:
    top = C.parse("black-sling")
    hand = [0] * 9
    hand[C.parse("black-ant")] = 3
    hand[C.parse("white-ant")] = 1
    assert discard_choices(hand, top) == [(C.parse("black-ant"), k) for k in (1, 2, 3)]
    assert can_discard(hand, top)
    hand[C.parse("black-ant")] = 0
    assert not can_discard(hand, top) and discard_choices(hand, top) == []


def test_identical_to_top_and_any_count_up_to_all() -> None:
    s = build(
        [{"black-sling": 4, "white-shell": 2}, {"red-shell": 8}, {"red-ant": 8}],
        top="black-sling",
        market=["white-shell"] * 8,
    )
    s.apply(take(3))
    legal = s.legal_actions()
    assert [a["count"] for a in legal if a["card"] == "black-sling"] == [1, 2, 3, 4]
    # white-shell shares neither colour nor style with black-sling
    assert all(a["card"] != "white-shell" for a in legal)


# ----------------------------------------------------------- Action A / B


def test_action_a_needs_a_match_before_taking() -> None:
    """Only a market card would match: Action A is refused, the single option is to draw."""
    s = build(
        [{"white-shell": 5, "red-ant": 5}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        market=["black-sling"] * 8,
    )
    assert s.legal_actions() == [{"type": "draw"}]
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="only draw is legal"):
        s.apply(take(0))
    assert json.dumps(s.to_json(), sort_keys=True) == before
    events = s.apply({"type": "draw"})
    assert types(events) == ["draw"] and "card" not in events[0]  # the drawn card stays secret
    assert s.observation(0)["hand_sizes"][0] == 11
    assert s.current_seat() == 1


def test_draw_always_allowed_and_take_lists_all_slots() -> None:
    s = build([{"white-sling": 2, "red-ant": 8}, {"red-shell": 9}, {"white-ant": 9}])
    assert s.legal_actions() == [{"type": "draw"}] + [take(i) for i in range(8)]


def test_discard_the_card_just_taken_and_refill() -> None:
    s = build(
        [{"white-sling": 1, "red-ant": 9}, {"white-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        market=["black-shell", *["red-shell"] * 7],
        deck=["white-shell", "red-sling"],
    )
    events = s.apply(take(0))
    assert events == [{"type": "take", "seat": 0, "slot": 0, "card": "black-shell"}]
    obs = s.observation(0)
    assert obs["phase"] == "discard" and obs["taken_slot"] == 0 and obs["market"][0] is None
    assert obs["known_in_hands"][0] == {"black-shell": 1}
    events = s.apply(discard("black-shell", 1))
    assert types(events) == ["discard", "refill"]
    assert events[1]["card"] == "red-sling" and events[1]["slot"] == 0
    assert s.observation(1)["market"][0] == "red-sling"
    assert s.observation(1)["known_in_hands"][0] == {}
    assert s.observation(0)["hand"] == {"white-sling": 1, "red-ant": 9}


def test_whole_type_discard_including_the_taken_card_clears_out() -> None:
    s = build(
        [{"black-ant": 2, "red-ant": 6}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        market=["black-ant", *["white-shell"] * 7],
    )
    s.apply(take(0))
    events = s.apply(discard("black-ant", 3))
    clear = [e for e in events if e["type"] == "clear_out"]
    assert clear == [
        {"type": "clear_out", "seat": 0, "card": "red-ant", "count": 6, "points": 36, "total": 36}
    ]
    obs = s.observation(2)
    assert obs["cleared"][0] == {"card": "red-ant", "count": 6}
    assert obs["hand_sizes"][0] == 0 and obs["scores"][0] == 36
    assert s.current_seat() == 1


def test_linear_scoring_option() -> None:
    s = build(
        [{"black-ant": 1, "red-ant": 6}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        market=["white-shell"] * 8,
        square=False,
    )
    s.apply(take(0))
    s.apply(discard("black-ant", 1))
    # the hand now holds red-ant x6 and the taken white-shell: no clear out yet
    assert s.observation(0)["scores"] == [0, 0, 0]
    s2 = build(
        [{"black-ant": 1, "red-ant": 6}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        market=["black-ant"] * 8,
        square=False,
    )
    s2.apply(take(0))
    s2.apply(discard("black-ant", 2))
    assert s2.observation(0)["scores"] == [6, 0, 0]


# ------------------------------------------------------------------ turn order


def test_cleared_players_are_skipped() -> None:
    s = build(
        [
            {"red-ant": 5, "white-sling": 1},
            {"red-shell": 6},
            {"white-ant": 5},
            {"black-shell": 4, "white-shell": 1},
        ],
        seat=0,
        out=[None, ("red-shell", 4), None, None],
        top="black-sling",
        market=["white-shell"] * 8,
    )
    s.apply({"type": "draw"})
    assert s.current_seat() == 2


def test_round_ends_when_one_player_left_and_marker_passes_left() -> None:
    s = build(
        [{"black-ant": 1, "red-ant": 6}, {"red-shell": 9}, {"white-ant": 9}],
        seat=0,
        start_seat=2,
        out=[None, None, ("white-shell", 4)],
        top="black-sling",
        market=["black-ant"] * 8,
        round_=3,
    )
    events = s.apply(take(0))
    events = s.apply(discard("black-ant", 2))
    assert types(events)[:4] == ["discard", "refill", "clear_out", "round_end"]
    end = events[3]
    assert end["reason"] == "one_player_left" and end["points"] == [36, 0, 0]
    assert types(events)[4] == "round_start"
    assert events[4]["start_seat"] == 0 and events[4]["round"] == 4  # marker passed left
    obs = s.observation(1)
    assert obs["round"] == 4 and obs["start_seat"] == 0 and s.current_seat() == 0
    assert obs["cleared"] == [None, None, None] and obs["round_points"] == [0, 0, 0]
    assert obs["hand_sizes"] == [10, 10, 10] and obs["draw_pile"] == 51
    assert obs["past_rounds"][-1] == [36, 0, 0]
    assert card_census(s) == [10] * 9


def test_round_ends_when_draw_pile_empties_on_a_draw() -> None:
    s = build(
        [{"white-shell": 5, "red-ant": 5}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        deck=["black-shell"],
        market=["black-ant"] * 8,
    )
    events = s.apply({"type": "draw"})
    assert types(events)[:2] == ["draw", "round_end"]
    assert events[1]["reason"] == "draw_pile_empty" and events[1]["points"] == [0, 0, 0]


def test_last_refill_with_a_clear_out_scores_then_ends_round() -> None:
    """The refill empties the draw pile; the turn (and its clear-out check) finishes first."""
    s = build(
        [{"black-ant": 2, "red-ant": 7}, {"white-sling": 9}, {"white-ant": 9}],
        top="black-sling",
        deck=["white-shell"],
        market=["red-ant", *["red-shell"] * 7],
    )
    s.apply(take(0))
    events = s.apply(discard("black-ant", 2))
    assert types(events)[:4] == ["discard", "refill", "clear_out", "round_end"]
    assert events[2]["points"] == 64 and events[3]["reason"] == "draw_pile_empty"
    assert s.observation(0)["scores"] == [64, 0, 0]


def test_last_draw_can_clear_out() -> None:
    s = build(
        [{"red-ant": 8}, {"red-shell": 9}, {"white-ant": 9}],
        top="white-shell",
        deck=["red-ant"],
        market=["black-shell"] * 8,
    )
    # a hand already of one type (as dealt) clears out at the end of its owner's turn
    events = s.apply({"type": "draw"})
    assert types(events)[:3] == ["draw", "clear_out", "round_end"]
    assert events[1]["count"] == 9 and events[1]["points"] == 81


# ------------------------------------------------------------ end and ties


def test_game_goes_on_below_target() -> None:
    s = build(
        [{"white-shell": 5, "red-ant": 5}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        deck=["black-shell"],
        totals=[99, 50, 0],
    )
    s.apply({"type": "draw"})
    assert not s.is_over() and s.observation(0)["round"] == 2


def test_game_ends_at_target_with_tie_break_by_final_round_order() -> None:
    """Seats 0 and 2 tie at 100; in the final round seat 1 started, so the order was 1, 2, 0:
    seat 0 played later and ranks higher."""
    s = build(
        [{"white-sling": 1, "black-ant": 2}, {"red-shell": 9}, {"white-ant": 9}],
        seat=0,
        start_seat=1,
        top="black-sling",
        market=["black-ant"] * 8,
        totals=[91, 60, 100],
        out=[None, None, ("white-shell", 3)],
    )
    s.apply(take(0))
    events = s.apply(discard("white-sling", 1))
    assert types(events)[-2:] == ["round_end", "game_end"]
    assert s.is_over() and s.current_seat() is None and s.legal_actions() == []
    res = s.result()
    assert res.scores == [100, 60, 100] and res.reason == "normal"
    assert res.ranks == [1, 3, 2]
    with pytest.raises(IllegalAction, match="over"):
        s.apply({"type": "draw"})


def test_round_limit_ends_the_game_with_normal_ranking() -> None:
    s = build(
        [{"white-shell": 5, "red-ant": 5}, {"red-shell": 9}, {"white-ant": 9}],
        top="black-sling",
        deck=["black-shell"],
        totals=[4, 9, 9],
        round_=5,
        max_rounds=5,
        start_seat=0,
    )
    events = s.apply({"type": "draw"})
    assert events[-1]["type"] == "game_end" and events[-1]["reason"] == "round_limit"
    res = s.result()
    assert res.reason == "round_limit" and res.ranks == [3, 2, 1]  # seat 2 later than seat 1


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(GameError, match="not over"):
        GAME.new_game(3, 1).result()


# --------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "take", "slot": 8},
        {"type": "take", "slot": -1},
        {"type": "take", "slot": True},
        {"type": "take", "slot": 1.0},
        {"type": "take", "slot": 0, "x": 1},
        {"type": "discard"},
        "draw",
        None,
        [],
        {"type": "draw", "card": "red-ant"},
    ],
)
def test_malformed_actions_refused(bad: object) -> None:
    s = build([{"white-sling": 2, "red-ant": 8}, {"red-shell": 9}, {"white-ant": 9}])
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="trnd"):
        s.apply(bad)
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_malformed_state_json_is_a_clear_error() -> None:
    good = GAME.new_game(3, 1).to_json()
    with pytest.raises(GameError, match="malformed"):
        GAME.state_from_json({k: v for k, v in good.items() if k != "deck"})
    bad = dict(good, deck=good["deck"][1:])
    with pytest.raises(GameError, match="10 each"):
        GAME.state_from_json(bad)
    with pytest.raises(GameError, match="players"):
        GAME.state_from_json(dict(good, players=2))
    with pytest.raises(GameError, match="0 to 8"):
        GAME.state_from_json(dict(good, deck=[99, *good["deck"][1:]]))
    with pytest.raises(GameError, match="negative"):
        GAME.state_from_json(dict(good, hands=[[-1] * 9, *good["hands"][1:]]))
    with pytest.raises(GameError, match="taken slot"):
        GAME.state_from_json(dict(good, phase="discard", taken_slot=12))
    with pytest.raises(GameError, match="malformed"):
        GAME.state_from_json(dict(good, market="nope"))
    with pytest.raises(GameError, match="unknown card"):
        C.parse("purple-sofa")


def test_observation_hides_other_hands_and_deck() -> None:
    s = GAME.new_game(4, 11)
    obs = s.observation(2)
    assert sum(obs["hand"].values()) == 9
    assert not {"deck", "hands", "rng"} & set(obs) and isinstance(obs["draw_pile"], int)
    with pytest.raises(GameError, match="no seat"):
        s.observation(4)


def test_render_text_shows_every_zone() -> None:
    from games.trnd.render import render_text

    s = build(
        [{"black-ant": 2, "red-ant": 7}, {"white-sling": 9}, {"white-ant": 9}],
        top="black-sling",
        deck=["white-shell"],
        market=["red-ant", *["red-shell"] * 7],
        out=None,
        totals=[5, 0, 12],
    )
    text = render_text(s.to_json())
    assert "7xRAn 2xBAn" in text and "9xWSl" in text and "discard top BSl" in text
    assert "[ 1]" in text and "draw pile top WSh" in text and " 12 pts" in text
    s.apply(take(0))
    s.apply(discard("black-ant", 2))  # clears out with the last refill: the round restarts
    assert "cleared" not in render_text(s.to_json())
    with pytest.raises(GameError, match="malformed"):
        render_text({"players": 3})
