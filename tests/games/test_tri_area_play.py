"""Tri*Area play: construction, additional construction, defaults, round flow, settlement
through the state machine, NPC seats, bad input."""

from __future__ import annotations

import pytest

from games.base import GameError, IllegalAction
from games.tri_area import GAME, TriAreaState
from games.tri_area.board import AREAS
from games.tri_area.cards import ALL_CARDS, rank
from games.tri_area.rounds import SEATS


def new(players: int = 4, seed: int = 1, **options: object) -> TriAreaState:
    st = GAME.new_game(players, seed, dict(options))
    assert isinstance(st, TriAreaState)
    return st


def at_build(
    cards: list[str],
    leader: int = 0,
    round_no: int = 2,
    supply: int = 8,
    board: dict[int, list[int]] | None = None,
    scores: list[int] | None = None,
) -> TriAreaState:
    """A state whose meeting has just been played with ``cards`` (no 5s), now building."""
    st = new()
    st.round = round_no
    st.hands = [[c, "I9" if c != "I9" else "I8"] for c in cards]
    st.supply = [supply] * SEATS
    st.scores = list(scores or [10] * SEATS)
    for sq, stack in (board or {}).items():
        st.board[sq] = list(stack)
    st.leader = leader
    st._begin_trick()
    for k in range(SEATS):
        seat = (leader + k) % SEATS
        st.apply({"type": "play", "card": cards[seat]})
    assert st.phase == "build"
    return st


# --------------------------------------------------------------------- construction


def test_rightholders_build_in_the_adopted_area_rh2_may_stack_two() -> None:
    st = at_build(["H9", "I6", "H2", "H1"])  # red; RH1 seat 3, RH2 seat 0
    assert st.current_seat() == 3
    squares = list(AREAS["H"])
    assert st.legal_actions() == [
        *({"type": "build", "square": s, "count": 1} for s in squares),
        {"type": "decline"},
    ]
    st.apply({"type": "build", "square": 10, "count": 1})  # printed +3, empty
    assert st.scores[3] == 13 and st.board[10] == [3]
    assert st.current_seat() == 0
    assert {"type": "build", "square": 10, "count": 2} in st.legal_actions()
    events = st.apply({"type": "build", "square": 10, "count": 2})
    assert st.board[10] == [3, 0, 0] and st.supply[0] == 6
    assert events[0]["points"] == 0 and st.scores[0] == 10  # not empty: no printed points
    assert st.phase == "meeting" and st.leader == 3


def test_printed_points_only_once_per_empty_square() -> None:
    st = at_build(["H9", "I6", "H2", "H1"])
    st.apply({"type": "build", "square": 13, "count": 1})  # +2
    st.apply({"type": "build", "square": 15, "count": 2})  # +1, once for two blocks
    assert st.scores[3] == 12 and st.scores[0] == 11


def test_additional_construction_needs_an_adjacent_own_block() -> None:
    # Seat 3 (RH1) owns a block on 9 (Ecology), next to 10 (Happiness).
    st = at_build(["H9", "I6", "H2", "H1"], board={9: [1, 3, 1]})
    st.apply({"type": "build", "square": 10, "count": 1})
    assert st.phase == "extra" and st.current_seat() == 3
    # Any orthogonal neighbour of 10, in any area, or skip.
    assert st.legal_actions() == [
        {"type": "extra", "square": 6},
        {"type": "extra", "square": 9},
        {"type": "extra", "square": 11},
        {"type": "extra", "square": 14},
        {"type": "skip"},
    ]
    st.apply({"type": "extra", "square": 6})  # Modern's +3, across the area border
    assert st.board[6] == [3] and st.scores[3] == 16 and st.supply[3] == 6
    assert st.phase == "build" and st.current_seat() == 0  # no chain of extra blocks


def test_no_additional_construction_without_neighbour_or_blocks() -> None:
    st = at_build(["H9", "I6", "H2", "H1"], board={13: [3]})
    st.apply({"type": "build", "square": 15, "count": 1})  # 15's neighbours: 11, 14
    assert st.phase == "build" and st.current_seat() == 0
    st = at_build(["H9", "I6", "H2", "H1"], board={9: [3]}, supply=1)
    st.apply({"type": "build", "square": 10, "count": 1})  # earned, but no block left
    assert st.phase == "build" and st.current_seat() == 0


def test_extra_needs_top_option_reads_adjacency_by_top_block() -> None:
    st = at_build(["H9", "I6", "H2", "H1"], board={9: [3, 1]})
    st.options["extra_needs_top"] = True
    st.apply({"type": "build", "square": 10, "count": 1})
    assert st.phase == "build"  # the own block on 9 is covered


def test_default_loses_the_rank_and_floors_at_zero() -> None:
    st = at_build(["H9", "I6", "H2", "H1"], scores=[4, 10, 10, 10])
    st.apply({"type": "decline"})  # RH1 played H1
    assert st.scores[3] == 9
    events = st.apply({"type": "decline"})  # RH2 played H9 with 4 points
    assert st.scores[0] == 0 and events[0]["lost"] == 4


def test_default_with_no_blocks_is_forced() -> None:
    st = at_build(["H9", "I6", "H2", "H1"], supply=0)
    assert st.legal_actions() == [{"type": "decline"}]
    st.apply({"type": "decline"})
    assert st.scores[3] == 9


def test_default_after_fives_phase_loses_the_plain_rank() -> None:
    st = new()
    st.round = 2
    st.hands = [["H9", "I1"], ["I6", "I2"], ["H2", "I3"], ["H5", "I4"]]
    st.scores = [10] * SEATS
    st.leader = 0
    st._begin_trick()
    for c in ("H9", "I6", "H2", "H5"):
        st.apply({"type": "play", "card": c})
    st.apply({"type": "five", "as": 5})
    assert st.rh == [2, 0]
    st.apply({"type": "decline"})  # seat 2, H2
    assert st.scores[2] == 8


def test_default_with_unconverted_five_pays_one() -> None:
    st = new()
    st.round = 3
    st.hands = [["H1"], ["I6"], ["E2"], ["H5"]]
    st.scores = [10] * SEATS
    st.supply = [5] * SEATS
    st.leader = 3
    st._begin_trick()
    for c in ("H5", "H1", "I6", "E2"):
        st.apply({"type": "play", "card": c})
    st.apply({"type": "five", "as": 5})
    assert st.rh == [0, 3]
    st.apply({"type": "decline"})
    st.apply({"type": "decline"})  # seat 3's unconverted 5: pays 1 to count 0
    assert st.scores[3] == 9


# --------------------------------------------------------------------- rounds


def test_round_one_setup_no_fives_eight_cards_seven_blocks() -> None:
    st = new(seed=3)
    assert st.round == 1 and st.phase == "meeting"
    cards = [c for h in st.hands for c in h]
    assert sorted(cards) == sorted(c for c in ALL_CARDS if rank(c) != 5)
    assert [len(h) for h in st.hands] == [8] * 4 and st.supply == [7] * 4
    assert st.leader == st.start == st.current_seat()


def _play_first(st: TriAreaState, until_round: int | None = None) -> None:
    while not st.is_over() and (until_round is None or st.round < until_round):
        st.apply(st.legal_actions()[0])


def test_round_two_and_three_setup() -> None:
    st = new(seed=5)
    _play_first(st, until_round=2)
    assert st.round == 2 and st.trick == 1
    assert sorted(c for h in st.hands for c in h) == sorted(ALL_CARDS)
    assert [len(h) for h in st.hands] == [9] * 4 and st.supply == [8] * 4
    best = max(st.scores)
    assert st.scores[st.start] == best
    _play_first(st, until_round=3)
    assert st.round == 3 and st.phase == "lead_declaration"
    assert st.supply == [9] * 4 and st.current_seat() == st.start


def test_start_player_tie_goes_clockwise_from_previous_start() -> None:
    st = new()
    st.start = 2
    st.scores = [7, 5, 3, 7]
    st._start_round(2)
    assert st.start == 3
    st.scores = [7, 5, 7, 7]
    st._start_round(3)
    assert st.start == 3


def test_round_two_leaves_one_intent_card() -> None:
    st = new(seed=8)
    _play_first(st, until_round=2)
    while st.trick < 8 or st.phase != "meeting":
        st.apply(st.legal_actions()[0])
    for _ in range(4):
        st.apply(st.legal_actions()[0])
    while st.round == 2:
        assert [len(h) for h in st.hands] == [1] * 4
        st.apply(st.legal_actions()[0])
    intent = st.history[1]["intent"]
    assert len(intent["cards"]) == 4 and all(intent["cards"])


def test_round_three_declaration_hidden_until_all_then_selling_counterclockwise() -> None:
    st = new(seed=9)
    _play_first(st, until_round=3)
    start = st.start
    first = st.current_seat()
    card = st.hands[first][0]
    st.apply({"type": "declare", "card": card})
    assert card not in st.hands[first] and len(st.hands[first]) == 8
    other = (first + 1) % 4
    assert st.observation(other)["lead_declarations"] is None
    assert st.observation(other)["my_lead_declaration"] is None
    assert st.observation(first)["my_lead_declaration"] == card
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    assert st.phase == "sell"
    assert st.observation(other)["lead_declarations"][first] == card
    order = []
    before = list(st.scores)
    for n in (0, 1, 2, 9):
        order.append(st.current_seat())
        st.apply({"type": "sell", "n": n})
    assert order == [(start - k) % 4 for k in (1, 2, 3, 4)]
    sold = dict(zip(order, (0, 1, 2, 9), strict=True))
    for seat, n in sold.items():
        assert st.sold[seat] == n and st.supply[seat] == 9 - n
        assert st.scores[seat] == before[seat] + 3 * n
    assert st.phase == "meeting" and all(len(h) == 8 for h in st.hands)


def test_round_three_settlement_lead_declaration_and_unplaced_blocks() -> None:
    st = new()
    st.round = 3
    st.phase = "build"
    st.scores = [10, 10, 10, 10]
    st.supply = [0, 2, 3, 5]
    st.sold = [0, 0, 0, 4]
    st.hands = [[], [], [], []]
    h = AREAS["H"]
    i = AREAS["I"]
    st.board[h[0]] = [0]
    st.board[h[1]] = [0]
    st.board[h[2]] = [1, 1]
    st.board[h[3]] = [2]
    st.board[i[0]] = [0, 0, 0]  # seat 0's tallest building: +10
    st.lead_decl = ["H7", "H4", "H6", "H5"]
    st.revealed = True
    events = st._settle()
    lead = next(e for e in events if e["type"] == "lead_result")
    # H: seat 0 first (+7), seat 1 second (±0), seat 2 third (-6), seat 3 unranked: its 5
    # loses only 1, paying to count as 0.
    assert lead["points"] == [7, 0, -6, -1]
    unplaced = next(e for e in events if e["type"] == "unplaced")
    assert unplaced["blocks"] == [0, 2, 3, 5]
    assert st.is_over() and st.current_seat() is None
    # seat 0: 10 + H 4 + I 8 + tallest 10 + lead 7 = 39; seat 1: 10 + H 6 - 2x2 = 12;
    # seat 2: 10 - 6 - 2x3 floors at 0; seat 3: 10 - 1 - 2x5 floors at 0.
    assert st.scores == [39, 12, 0, 0]
    assert unplaced["points"] == [0, -4, -4, -9]


def test_sold_blocks_penalised_option() -> None:
    st = new(sold_blocks_penalised=True)
    st.round = 3
    st.phase = "build"
    st.scores = [20] * 4
    st.supply = [1, 0, 0, 0]
    st.sold = [2, 0, 0, 0]
    st.hands = [[], [], [], []]
    st.lead_decl = [None] * 4
    st._settle()
    assert st.scores[0] == 20 - 2 * 3


def test_round_two_intent_success_and_failure() -> None:
    st = new()
    st.round = 2
    st.scores = [0, 0, 0, 0]
    st.hands = [["M3"], ["E9"], ["I6"], ["H2"]]
    m, e, i = AREAS["M"], AREAS["E"], AREAS["I"]
    st.board[m[0]] = [0]  # seat 0 first in Modern: +3 (the rulebook's "success! 3 points")
    st.board[e[0]] = [1]
    st.board[e[1]] = [1]  # seat 1 first in Ecology: +9
    st.board[i[0]] = [2]  # seat 2 first in Intelligent: +6
    # Seat 3 tops nothing in Happiness: "fail! 0 points".
    events = st._settle()
    intent = next(e for e in events if e["type"] == "intent")
    assert intent["points"] == [3, 9, 6, 0]
    assert st.round == 3  # next round set up


def test_game_end_tie_shares_first_place() -> None:
    st = new(players=4)
    st.round = 3
    st.phase = "build"
    st.scores = [30, 30, 12, 0]
    st.supply = [0] * 4
    st.hands = [[], [], [], []]
    st.lead_decl = [None] * 4
    st._settle()
    res = st.result()
    assert res.scores == [30, 30, 12, 0] and res.ranks == [1, 1, 3, 4]


# --------------------------------------------------------------------- NPC seats


@pytest.mark.parametrize("players", [1, 2, 3])
def test_npc_seats_never_owe_a_decision(players: int) -> None:
    st = new(players=players, seed=11)
    while not st.is_over():
        seat = st.current_seat()
        assert seat is not None and seat < players
        st.apply(st.legal_actions()[-1])
    res = st.result()
    assert len(res.scores) == players and min(res.ranks) == 1
    assert len(res.details["seat_scores"]) == 4
    assert res.details["npc_seats"] == list(range(players, 4))


def test_npc_policy_plays_lowest_of_longest_suit_and_builds_best_square() -> None:
    from games.tri_area import npc

    assert npc.play_card(["I2", "M1", "M7", "E3", "M4"]) == "M1"
    assert npc.play_card(["I2", "M1"]) == "I2"  # tie: suit order
    assert npc.declare_card(["I3", "M1", "M7", "E1"]) == "M1"
    board: list[list[int]] = [[] for _ in range(16)]
    assert npc.pick_square(board, AREAS["I"]) == 5  # the +3 square
    for s in AREAS["I"]:
        board[s] = [1]
    board[2] = [1, 2]
    assert npc.pick_square(board, AREAS["I"]) == 2  # the tallest


# --------------------------------------------------------------------- bad input


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(GameError, match="1 to 4 players"):
        GAME.new_game(5, 1)
    with pytest.raises(GameError, match="1 to 4 players"):
        GAME.new_game(0, 1)
    with pytest.raises(GameError, match="unknown option"):
        GAME.new_game(4, 1, {"rounds": 2})
    with pytest.raises(GameError, match="true or false"):
        GAME.new_game(4, 1, {"sold_blocks_penalised": 1})
    st = new()
    with pytest.raises(GameError, match="not over"):
        st.result()
    with pytest.raises(GameError, match="missing field"):
        TriAreaState.from_json({"players": 4})


def test_illegal_actions_refused_state_unchanged() -> None:
    st = new(seed=4)
    seat = st.current_seat()
    assert seat is not None
    before = st.to_json()
    not_mine = next(c for c in ALL_CARDS if c not in st.hands[seat])
    for bad in (
        {"type": "play", "card": not_mine},
        {"type": "play"},
        {"type": "decline"},
        {"type": "sell", "n": 0},
        {"type": "play", "card": st.hands[seat][0], "x": 1},
    ):
        with pytest.raises(IllegalAction, match="not legal"):
            st.apply(bad)
    st2 = at_build(["H9", "I6", "H2", "H1"])
    with pytest.raises(IllegalAction):
        st2.apply({"type": "build", "square": 0, "count": 1})  # not the adopted area
    with pytest.raises(IllegalAction):
        st2.apply({"type": "build", "square": 10, "count": 2})  # RH1 may not stack two
    with pytest.raises(IllegalAction):
        st2.apply({"type": "build", "square": True, "count": 1})  # JSON true is not 1
    assert st.to_json() == before
