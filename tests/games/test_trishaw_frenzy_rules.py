"""Trishaw Frenzy: the rules on hand-built positions (squares, events, rounds, scoring, solo).

Positions are built by painting the 9 tiles (all beige unless a test says otherwise), laying
tile t at position t unrotated, and using route R1 (row snake) read from the south, so progress
is easy to read: row 0 runs east (progress = col), row 1 runs back west (17 - col), and so on.
Dice are rigged by choosing the RNG state that rolls the wanted values.
"""

from __future__ import annotations

import pytest

from games.base import GameError, IllegalAction
from games.registry import get_game
from games.rng import Rng
from games.trishaw_frenzy import board, moves, scoring
from games.trishaw_frenzy import components as comp
from games.trishaw_frenzy.state import TrishawState

GAME = get_game("trishaw-frenzy")
E = {eid: i for i, eid in enumerate(comp.EVENT_IDS)}


def cell(r: int, c: int) -> int:
    return r * 9 + c


def paint(monkeypatch: pytest.MonkeyPatch, squares: dict[tuple[int, int], str]) -> None:
    """Make the board show ``squares`` (beige elsewhere) with tile t at position t, turns 0."""
    grids = [[["."] * 3 for _ in range(3)] for _ in range(9)]
    for (r, c), ch in squares.items():
        grids[(r // 3) * 3 + c // 3][r % 3][c % 3] = ch
    faces = [comp._faces(["".join(row) for row in grids[t]]) for t in range(9)]
    monkeypatch.setattr(board, "FACES", faces)
    monkeypatch.setattr(
        board,
        "PORTAL_LOCALS",
        [[tuple(i for i, ch in enumerate(f) if ch == "P") for f in by_turns] for by_turns in faces],
    )


def make(
    players: int, pos: list[int], turn: int = 0, route: int = 0, view: int = 0, **options
) -> TrishawState:
    st = GAME.new_game(players, 1, options or None)
    s = st.s
    s.update(
        tiles=[[p, 0] for p in range(9)],
        route=[route, view],
        pos=list(pos),
        turn=turn,
        phase="roll",
        ending=None,
        event=None,
        turns=0,
    )
    return st


def rig(st: TrishawState, *rolls: tuple[int, int]) -> None:
    """Set the RNG so that the next dice are ``rolls`` ((sides, value) pairs)."""
    for seed in range(1_000_000):
        r = Rng(seed)
        if all(r.randint(1, sides) == value for sides, value in rolls):
            st.s["rng"] = seed
            return
    raise AssertionError("no seed found")


def prog(st: TrishawState) -> list[int]:
    return moves.progress(st.s)


def roll(st: TrishawState, value: int) -> list[dict]:
    rig(st, (6, value))
    return st.apply({"type": "roll"})


# ------------------------------------------------------------------------- movement
def test_dice_move_forwards_along_the_route(monkeypatch) -> None:
    paint(monkeypatch, {})
    st = make(2, [cell(0, 0), cell(0, 0)])
    ev = roll(st, 4)
    assert prog(st) == [4, 0]
    assert {"type": "roll", "trishaw": 0, "die": 6, "value": 4} in ev
    assert st.current_seat() == 1
    # row 1 runs back west in the row snake: progress 8 + 3 = 11 is (1, 6)
    st.s["pos"][1] = cell(0, 8)
    roll(st, 3)
    assert st.s["pos"][1] == cell(1, 6) and prog(st)[1] == 11


def test_arrow_moves_once_without_chaining(monkeypatch) -> None:
    paint(monkeypatch, {(0, 3): ">", (0, 4): "v", (1, 4): "E"})
    st = make(2, [cell(0, 0), cell(0, 0)])
    ev = roll(st, 3)
    # (0,3) sends east to (0,4): another arrow, which is not resolved
    assert st.s["pos"][0] == cell(0, 4)
    assert [e["by"] for e in ev if e["type"] == "move"] == ["dice", "arrow"]
    assert st.s["phase"] == "roll" and st.current_seat() == 1


def test_arrows_pointing_at_each_other_never_hang(monkeypatch) -> None:
    paint(monkeypatch, {(0, 3): ">", (0, 4): "<"})
    st = make(2, [cell(0, 0), cell(0, 0)])
    roll(st, 3)
    assert st.s["pos"][0] == cell(0, 4)
    roll(st, 4)  # the other trishaw lands on the west arrow and goes back one
    assert st.s["pos"][1] == cell(0, 3)


def test_a_board_of_arrows_only_still_ends(monkeypatch) -> None:
    paint(monkeypatch, {(r, c): ">" if (r + c) % 2 else "<" for r in range(9) for c in range(9)})
    st = make(3, [cell(0, 0)] * 3)
    rng = Rng(5)
    steps = 0
    while not st.is_over():
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
        steps += 1
        assert steps < 5000
    assert st.result().ranks


def test_arrow_backwards_lowers_progress(monkeypatch) -> None:
    paint(monkeypatch, {(0, 5): "<"})
    st = make(2, [cell(0, 0), cell(0, 0)])
    roll(st, 5)
    assert prog(st)[0] == 4


@pytest.mark.parametrize(
    ("square", "arrow", "target"),
    [((0, 2), "^", (8, 2)), ((8, 2), "v", (0, 2)), ((4, 8), ">", (4, 0)), ((4, 0), "<", (4, 8))],
)
def test_arrow_off_the_edge_wraps_to_the_opposite_side(monkeypatch, square, arrow, target):
    paint(monkeypatch, {square: arrow})
    index = comp.ROUTE_INDEX[0][0]
    start = index[cell(*square)] - 2
    st = make(2, [comp.ROUTE_CELLS[0][0][start], cell(0, 0)])
    roll(st, 2)
    assert st.s["pos"][0] == cell(*target)


def test_arrow_onto_an_event_square_draws_nothing(monkeypatch) -> None:
    paint(monkeypatch, {(0, 3): ">", (0, 4): "E"})
    st = make(2, [cell(0, 0), cell(0, 0)])
    deck = list(st.s["event_deck"])
    ev = roll(st, 3)
    assert st.s["event_deck"] == deck and st.s["event"] is None
    assert not [e for e in ev if e["type"] == "event_card"]


def test_portal_goes_to_the_next_portal_in_route_order_and_loops(monkeypatch) -> None:
    # portals at progress 3, 13 (1,4) and 18 (2,0)
    paint(monkeypatch, {(0, 3): "P", (1, 4): "P", (2, 0): "P"})
    st = make(2, [cell(0, 0), cell(1, 7)])  # (1,7) is progress 10
    roll(st, 3)
    assert st.s["pos"][0] == cell(1, 4)
    roll(st, 6)  # the other trishaw: 10 + 6 = 16, beige
    assert prog(st)[1] == 16
    st.s["pos"][0] = cell(1, 5)  # progress 12
    st.s["turn"] = 0
    roll(st, 6)  # lands on the last portal (18) and loops to the first (3)
    assert st.s["pos"][0] == cell(0, 3)


def test_a_lone_portal_does_nothing(monkeypatch) -> None:
    paint(monkeypatch, {(0, 3): "P"})
    st = make(2, [cell(0, 0), cell(0, 0)])
    ev = roll(st, 3)
    assert st.s["pos"][0] == cell(0, 3)
    assert [e["by"] for e in ev if e["type"] == "move"] == ["dice"]


def test_a_portal_reached_by_an_arrow_is_not_resolved(monkeypatch) -> None:
    paint(monkeypatch, {(0, 2): ">", (0, 3): "P", (1, 4): "P"})
    st = make(2, [cell(0, 0), cell(0, 0)])
    roll(st, 2)
    assert st.s["pos"][0] == cell(0, 3)


def test_riding_over_the_last_square_ends_the_round(monkeypatch) -> None:
    paint(monkeypatch, {(8, 8): "E"})
    st = make(2, [comp.ROUTE_CELLS[0][0][77], cell(0, 0)])
    ev = roll(st, 6)  # 77 + 6 is capped at 80; the final square is not resolved
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["reason"] == "finish" and end["progress"] == [80, 0]
    assert end["vp"] == [6, 4]
    assert st.s["round"] == 2 and st.s["tokens"] == [[6], [4]]
    assert not [e for e in ev if e["type"] == "event_card"]


def test_an_arrow_onto_the_last_square_ends_the_round(monkeypatch) -> None:
    paint(monkeypatch, {(8, 7): ">"})  # progress 79 points at (8,8), progress 80
    st = make(2, [comp.ROUTE_CELLS[0][0][75], cell(0, 0)])
    ev = roll(st, 4)
    assert next(e for e in ev if e["type"] == "round_end")["reason"] == "finish"


# ------------------------------------------------------------------------- events
def _at_event(
    monkeypatch,
    players: int,
    card: str,
    pos: list[int],
    turn: int = 0,
    view_override: int | None = None,
    **options,
) -> TrishawState:
    """A position where trishaw ``turn`` just landed on an event (at (0, 3)) and drew ``card``;
    then every trishaw is put back on ``pos``."""
    paint(monkeypatch, {(0, 3): "E"})
    st = make(players, pos, turn=turn, **options)
    st.s["event_deck"] = [c for c in range(12) if c != E[card]] + [E[card]]
    rig(st, (6, 3))
    start = st.s["pos"][turn]
    st.s["pos"][turn] = cell(0, 0)
    st.apply({"type": "roll"})
    assert st.s["phase"] == "event" and st.current_seat() == turn
    st.s["pos"][turn] = start
    return st


def test_event_square_offers_nine_rotations_and_the_bottom_effect(monkeypatch) -> None:
    st = _at_event(monkeypatch, 4, "E7", [cell(0, 0), cell(5, 5), cell(7, 1), cell(8, 0)])
    legal = st.legal_actions()
    rotations = [a for a in legal if a["type"] == "rotate"]
    assert {(a["tile"], a["turns"]) for a in rotations} == {
        (p, q) for p in (0, 4, 8) for q in (1, 2, 3)
    }
    assert [a for a in legal if a["type"] == "bottom"] == [{"type": "bottom", "effect": "gain_1vp"}]
    obs = st.observation(0)
    assert obs["phase"] == "event"
    assert obs["event"] == {"card": "E7", "view": 0, "highlight": [0, 4, 8], "bottom": "gain_1vp"}


@pytest.mark.parametrize(
    ("players", "turn", "view", "tiles"),
    [
        (4, 0, 0, [0, 1, 2]),
        (4, 1, 1, [2, 5, 8]),
        (4, 2, 2, [6, 7, 8]),
        (4, 3, 3, [0, 3, 6]),
        (2, 1, 2, [6, 7, 8]),
        (1, 0, 0, [0, 1, 2]),
    ],
)
def test_highlighted_tiles_follow_the_drawing_riders_viewpoint(
    monkeypatch, players, turn, view, tiles
) -> None:
    # E1 highlights the card's top row of tiles
    pos = [cell(0, 0)] * (2 if players == 1 else players)
    st = _at_event(monkeypatch, players, "E1", pos, turn=turn)
    assert st.s["event"] == [E["E1"], view]
    assert sorted({a["tile"] for a in st.legal_actions() if a["type"] == "rotate"}) == tiles


def test_rotation_turns_arrows_and_carries_trishaws(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E1", [cell(0, 0), cell(1, 1)])
    paint(monkeypatch, {(0, 3): "E", (0, 1): ">"})  # tile 0: an east arrow top-middle
    st.s["pos"] = [cell(0, 0), cell(1, 1)]
    st.apply({"type": "rotate", "tile": 0, "turns": 1})
    # top-left goes top-right; the centre stays; the arrow goes middle-right, pointing south
    assert st.s["pos"] == [cell(0, 2), cell(1, 1)]
    assert prog(st)[0] == 2
    assert board.face(st.s["tiles"], cell(1, 2)) == "v"
    assert st.s["event"] is None and st.s["event_discard"] == [E["E1"]]


def test_rotation_without_carrying_leaves_trishaws_in_place(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E1", [cell(0, 0), cell(1, 1)], rotate_carries_trishaws=False)
    st.s["pos"] = [cell(0, 0), cell(1, 1)]
    st.apply({"type": "rotate", "tile": 0, "turns": 3})
    assert st.s["pos"] == [cell(0, 0), cell(1, 1)] and st.s["tiles"][0] == [0, 3]


def test_swap_tiles_offers_only_pairs_of_empty_tiles(monkeypatch) -> None:
    pos = [cell(0, 0), cell(4, 4), cell(8, 8), cell(0, 8)]  # tiles 0, 4, 8, 2
    st = _at_event(monkeypatch, 4, "E3", pos)
    swaps = [a["tiles"] for a in st.legal_actions() if a["type"] == "bottom"]
    free = [1, 3, 5, 6, 7]
    assert swaps == [[a, b] for i, a in enumerate(free) for b in free[i + 1 :]]
    tiles = [list(t) for t in st.s["tiles"]]
    st.s["tiles"][3][1] = 2
    st.apply({"type": "bottom", "effect": "swap_tiles", "tiles": [3, 7]})
    assert st.s["tiles"][3] == tiles[7] and st.s["tiles"][7] == [3, 2]  # orientation kept
    assert board.free_tiles([cell(r * 3, c * 3) for r in range(3) for c in range(3)][:8]) == [8]


def test_push_back_d4_is_floored_at_the_start(monkeypatch) -> None:
    st = _at_event(monkeypatch, 3, "E5", [cell(0, 0), cell(0, 2), cell(1, 8)])
    targets = [a["target"] for a in st.legal_actions() if a["type"] == "bottom"]
    assert targets == [0, 1, 2]
    rig(st, (4, 4))
    st.apply({"type": "bottom", "effect": "push_back_d4", "target": 1})
    assert prog(st)[1] == 0
    st2 = _at_event(monkeypatch, 3, "E5", [cell(0, 0), cell(0, 2), cell(1, 8)])
    rig(st2, (4, 3))
    st2.apply({"type": "bottom", "effect": "push_back_d4", "target": 2})
    assert prog(st2)[2] == 6


def test_gain_1vp_counts_in_the_total(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E7", [cell(0, 0), cell(0, 0)])
    st.apply({"type": "bottom", "effect": "gain_1vp"})
    assert st.s["bonus"] == [1, 0]
    assert st.observation(1)["vp"][0] == {"rounds": [], "bonus": 1, "total": 1}


def test_swap_with_closest_lists_ties_and_skips_my_own_square(monkeypatch) -> None:
    # me at 3; others at 3 (same square, skipped), 1 and 5 (both 2 away)
    pos = [cell(0, 3), cell(0, 3), cell(0, 1), cell(0, 5)]
    st = _at_event(monkeypatch, 4, "E9", pos)
    assert st.s["pos"][0] == cell(0, 3)
    assert [a["target"] for a in st.legal_actions() if a["type"] == "bottom"] == [2, 3]
    st.apply({"type": "bottom", "effect": "swap_with_closest", "target": 3})
    assert prog(st) == [5, 3, 1, 3]


def test_swap_with_closest_absent_when_everyone_shares_my_square(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E10", [cell(0, 3), cell(0, 3)])
    assert all(a["type"] == "rotate" for a in st.legal_actions())


def test_forward_d4_reaching_the_end_ends_the_round(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E11", [comp.ROUTE_CELLS[0][0][78], cell(0, 0)])
    rig(st, (4, 2))
    ev = st.apply({"type": "bottom", "effect": "forward_d4"})
    assert next(e for e in ev if e["type"] == "round_end")["vp"] == [6, 4]
    assert st.s["round"] == 2


def test_change_route_recomputes_progress_with_the_drawers_view(monkeypatch) -> None:
    st = _at_event(monkeypatch, 4, "E2", [cell(0, 3), cell(0, 3), cell(2, 2), cell(4, 5)])
    st.s["turn"] = 2  # rider 2 (north side) drew the card in this test
    st.s["event"] = [E["E2"], 2]
    st.s["route_deck"] = [5, 2]  # R3 (clockwise spiral in) on top
    ev = st.apply({"type": "bottom", "effect": "change_route"})
    assert st.s["route"] == [2, 2] and st.s["route_discard"] == [0]
    # read from the north, the spiral starts at the south-east corner going west
    assert comp.ROUTE_CELLS[2][2][:2] == (cell(8, 8), cell(8, 7))
    assert prog(st) == [comp.ROUTE_INDEX[2][2][c] for c in st.s["pos"]] == [19, 19, 64, 79]
    assert st.s["round"] == 1 and st.s["phase"] == "roll"
    assert any(e["type"] == "route" and e["card"] == "R3" for e in ev)


def test_change_route_onto_the_new_last_square_ends_the_round(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E1", [cell(0, 0), cell(4, 4)])
    st.s["route_deck"] = [2]  # R3 spirals inward and ends in the centre, (4, 4)
    ev = st.apply({"type": "bottom", "effect": "change_route"})
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["reason"] == "finish" and end["vp"] == [4, 6]


def test_the_twelfth_event_card_ends_the_round(monkeypatch) -> None:
    st = _at_event(monkeypatch, 3, "E7", [cell(0, 0), cell(0, 1), cell(0, 1)])
    assert len(st.s["event_deck"]) == 11
    # pretend the other 11 were already used this round: this is the 12th card
    st.s["event_discard"], st.s["event_deck"] = list(range(11)), []
    assert st.observation(0)["decks"]["events_left"] == 0
    ev = st.apply({"type": "rotate", "tile": 8, "turns": 2})
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["reason"] == "events_exhausted"
    assert end["progress"] == [0, 1, 1] and end["vp"] == [2, 6, 6]


def test_illegal_event_choices_are_refused_untouched(monkeypatch) -> None:
    st = _at_event(monkeypatch, 2, "E7", [cell(0, 0), cell(0, 0)])
    before = st.to_json()
    for bad in (
        {"type": "rotate", "tile": 1, "turns": 1},  # not highlighted
        {"type": "rotate", "tile": 0, "turns": 4},
        {"type": "rotate", "tile": 0, "turns": True},  # bool is not a turn count
        {"type": "rotate", "tile": 0.0, "turns": 1},
        {"type": "bottom", "effect": "forward_d4"},  # not this card's effect
        {"type": "roll"},
    ):
        with pytest.raises(IllegalAction, match="trishaw-frenzy"):
            st.apply(bad)
    assert st.to_json() == before


# ------------------------------------------------------------------------- scoring
def test_faq_three_riders_on_one_square_all_get_six() -> None:
    # Ali, Beng and Chandran share a square, Danny is behind: 6, 6, 6 and 1
    assert scoring.round_vp([40, 40, 40, 35]) == [6, 6, 6, 1]


def test_rulebook_tie_for_third_gets_two_each() -> None:
    assert scoring.round_vp([50, 44, 30, 30]) == [6, 4, 2, 2]
    assert scoring.round_vp([20, 20]) == [6, 6]


def test_shared_square_at_round_end_through_the_engine(monkeypatch) -> None:
    st = _at_event(monkeypatch, 4, "E7", [cell(0, 0), cell(0, 6), cell(0, 6), cell(0, 2)])
    st.s["pos"][0] = cell(0, 6)
    st.s["event_discard"], st.s["event_deck"] = list(range(11)), []
    ev = st.apply({"type": "bottom", "effect": "gain_1vp"})
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["places"] == [1, 1, 1, 4] and end["vp"] == [6, 6, 6, 1]
    assert end["totals"] == [7, 6, 6, 1]


def test_game_tie_breaks_most_sixes_then_a_six_in_round_one() -> None:
    # equal totals (12): the one with a 6 wins
    assert scoring.final_ranks([[6, 4, 2], [4, 4, 4]], [0, 0]) == [1, 2]
    # equal totals and sixes: the 6 taken in round 1 wins
    assert scoring.final_ranks([[4, 2, 6], [6, 2, 4]], [0, 0]) == [2, 1]
    # bonus VP count in the total, before any tie-break
    assert scoring.final_ranks([[6, 4, 1], [4, 4, 4]], [0, 1]) == [2, 1]
    # still tied: shared rank
    assert scoring.final_ranks([[4, 6, 2], [2, 6, 4], [1, 1, 1]], [0, 0, 0]) == [1, 1, 3]


def test_next_first_rider_is_the_lowest_total_clockwise_on_ties() -> None:
    assert scoring.next_first_rider([[6], [1], [4]], [0, 0, 0], previous_first=0) == 1
    # riders 0 and 2 tie for lowest; clockwise after the previous first (2) comes 0
    assert scoring.next_first_rider([[2], [6], [2]], [0, 0, 0], previous_first=2) == 0
    assert scoring.next_first_rider([[2], [6], [2]], [0, 0, 0], previous_first=0) == 2


def test_a_new_round_has_a_new_map_and_the_lowest_rider_first(monkeypatch) -> None:
    st = make(3, [comp.ROUTE_CELLS[0][0][79], cell(0, 0), cell(0, 1)])
    st.s["tokens"] = [[], [], []]
    roll(st, 1)
    s = st.s
    assert s["round"] == 2 and s["tokens"] == [[6], [2], [4]]
    assert s["first"] == 1 and s["turn"] == 1 and st.current_seat() == 1
    assert sorted(t for t, _ in s["tiles"]) == list(range(9))
    assert s["route"][1] == 1  # the new first rider (west) drew the route
    assert s["pos"] == [comp.ROUTE_CELLS[s["route"][0]][1][0]] * 3
    assert len(s["event_deck"]) == 12 and len(s["route_deck"]) == 11


def test_three_rounds_then_the_game_ends() -> None:
    st = GAME.new_game(2, 3)
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    res = st.result()
    assert [len(t) for t in res.details["round_vp"]] == [3, 3]
    assert res.scores == [
        sum(t) + b for t, b in zip(res.details["round_vp"], res.details["bonus_vp"], strict=True)
    ]
    assert st.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        st.apply({"type": "roll"})


def test_rounds_option() -> None:
    st = GAME.new_game(2, 3, {"rounds": 1})
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    assert [len(t) for t in st.result().details["round_vp"]] == [1, 1]


# ------------------------------------------------------------------------- solo
def test_solo_ai_moves_first_and_owes_no_decision() -> None:
    for seed in range(5):
        st = GAME.new_game(1, seed)
        assert st.s["first"] == 1 and st.s["turns"] == 1  # the AI already rode
        assert st.current_seat() == 0 and len(st.s["pos"]) == 2
        steps = 0
        while not st.is_over():
            assert st.current_seat() == 0
            st.apply(st.legal_actions()[-1])
            steps += 1
        res = st.result()
        assert res.ranks == [1] and len(res.scores) == 1
        keys = scoring.final_keys(st.s["tokens"], st.s["bonus"])
        assert res.details["solo_outcome"] == ("win" if keys[0] > keys[1] else "loss")
        assert res.details["ai_score"] == sum(st.s["tokens"][1]) + st.s["bonus"][1]


def test_solo_ai_rotates_the_marked_tile_on_an_event(monkeypatch) -> None:
    paint(monkeypatch, {(0, 3): "E"})
    st = make(1, [cell(0, 0), cell(0, 0)], turn=0)
    st.s["event_deck"] = [c for c in range(12) if c != E["E2"]] + [E["E2"]]
    rig(st, (6, 1), (6, 3))  # the rider rolls 1 (beige), the AI rolls 3 (event)
    ev = st.apply({"type": "roll"})
    # E2's solo mark: card tile 4 (the centre), anticlockwise = 3 quarter turns clockwise
    assert st.s["tiles"][4] == [4, 3]
    assert {"type": "ai_turn", "trishaw": 1} in ev
    assert any(e["type"] == "rotate" and e["tile"] == 4 and e["turns"] == 3 for e in ev)
    assert st.current_seat() == 0 and st.s["phase"] == "roll"
    assert st.s["event_discard"] == [E["E2"]]


def test_solo_cards_face_the_solo_rider() -> None:
    st = GAME.new_game(1, 0)
    assert moves.view_of(st.s, 0) == moves.view_of(st.s, 1) == 0
    obs = st.observation(0)
    assert obs["solo"] and obs["ai_trishaw"] == 1 and obs["trishaws"][1]["ai"]
    assert obs["trishaws"][1]["seat"] is None


def test_solo_rider_may_push_the_ai_back(monkeypatch) -> None:
    st = _at_event(monkeypatch, 1, "E6", [cell(0, 0), cell(0, 7)])
    assert [a.get("target") for a in st.legal_actions() if a["type"] == "bottom"] == [0, 1]


def test_seating_views() -> None:
    assert [moves.view_of(GAME.new_game(2, 0).s, t) for t in range(2)] == [0, 2]
    assert [moves.view_of(GAME.new_game(3, 0).s, t) for t in range(3)] == [0, 1, 2]
    assert [moves.view_of(GAME.new_game(4, 0).s, t) for t in range(4)] == [0, 1, 2, 3]


# ------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("players", [0, 5, -1, "2", 2.0, True])
def test_bad_player_counts(players) -> None:
    with pytest.raises(GameError, match=r"players|player count"):
        GAME.new_game(players, 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"round": 3}, "unknown option"),
        ({"rounds": 0}, "at least 1"),
        ({"rounds": "3"}, "integer"),
        ({"rotate_carries_trishaws": 1}, "true or false"),
    ],
)
def test_bad_options(options, message) -> None:
    with pytest.raises(GameError, match=message):
        GAME.new_game(2, 1, options)


def test_malformed_state_and_bad_seat_are_clear_errors() -> None:
    st = GAME.new_game(2, 1)
    data = st.to_json()
    del data["pos"]
    with pytest.raises(GameError, match="malformed state"):
        GAME.state_from_json(data)
    with pytest.raises(GameError, match="malformed state"):
        GAME.state_from_json({"tiles": 1})
    with pytest.raises(GameError, match="no seat 2"):
        st.observation(2)
