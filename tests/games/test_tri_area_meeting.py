"""Tri*Area meetings: the adopted concept and the two rightholders (rulebook examples 1-4)."""

from __future__ import annotations

from games.tri_area.meeting import adopt
from games.tri_area.rounds import SEATS
from games.tri_area.state import TriAreaState


def _adopt(cards: list[str], leader: int = 0, values: list[int] | None = None):
    return adopt(cards, values or [int(c[1]) for c in cards], leader)


def test_example_1_majority_three_to_one() -> None:
    # Red (Happiness) 9, 2, 1 against one 6: red adopted, Red 1 is RH1, Red 9 is RH2.
    assert _adopt(["H9", "I6", "H2", "H1"]) == ("H", 3, 0)


def test_example_2_two_two_larger_difference_wins() -> None:
    # Yellow 3 and 9 (difference 6) against green 1 and 8 (difference 7): green, though the
    # leader played yellow.
    assert _adopt(["M3", "M9", "E1", "E8"], leader=0) == ("E", 2, 3)


def test_example_3_all_different_leader_alone() -> None:
    for leader in range(SEATS):
        suit, rh1, rh2 = _adopt(["I4", "M9", "E3", "H8"], leader=leader)
        assert (suit, rh1, rh2) == ("IMEH"[leader], leader, None)


def test_example_4_five_turned_to_ten_becomes_rightholder_2() -> None:
    cards = ["M9", "I3", "M5", "E2"]
    assert _adopt(cards) == ("M", 2, 0)  # the 5 as 5: lowest yellow, so RH1
    assert _adopt(cards, values=[9, 3, 10, 2]) == ("M", 0, 2)  # as 10: RH2, the 9 is RH1
    assert _adopt(cards, values=[9, 3, 0, 2]) == ("M", 2, 0)


def test_two_two_equal_difference_goes_to_leaders_suit() -> None:
    cards = ["M3", "E1", "M6", "E4"]
    assert _adopt(cards, leader=0) == ("M", 0, 2)
    assert _adopt(cards, leader=1) == ("E", 1, 3)
    assert _adopt(cards, leader=2) == ("M", 0, 2)


def test_two_one_one_and_four_of_a_suit() -> None:
    assert _adopt(["I4", "M9", "M3", "H8"], leader=0) == ("M", 2, 1)
    assert _adopt(["I4", "I9", "I3", "I8"], leader=2) == ("I", 2, 1)


def test_three_one_middle_card_gets_nothing() -> None:
    suit, rh1, rh2 = _adopt(["E5", "E7", "E2", "I1"])
    assert (suit, rh1, rh2) == ("E", 2, 1)


def test_converted_five_changes_two_two_difference() -> None:
    cards = ["M5", "M9", "E1", "E8"]
    # As a 5, yellow is 4 apart and green 7: green.
    assert _adopt(cards, leader=0) == ("E", 2, 3)
    # As a 0 (paid 1 VP), yellow is 9 apart: yellow, and the 0 is Rightholder 1.
    assert _adopt(cards, leader=0, values=[0, 9, 1, 8]) == ("M", 0, 1)


def _round2_trick(hands: list[list[str]], leader: int, scores: list[int]) -> TriAreaState:
    """A 4-player state at the start of a round-2 meeting with the given hands."""
    from games.tri_area.game import GAME

    st = GAME.new_game(4, 1)
    assert isinstance(st, TriAreaState)
    st.round = 2
    st.hands = [list(h) for h in hands]
    st.scores = list(scores)
    st.supply = [8] * SEATS
    st.leader = leader
    st._begin_trick()
    return st


def test_example_4_in_play_pays_two_points_and_takes_the_right() -> None:
    st = _round2_trick([["M9", "I1"], ["I3", "I2"], ["M5", "E7"], ["E2", "E3"]], 0, [4, 4, 4, 4])
    for card in ("M9", "I3", "M5", "E2"):
        st.apply({"type": "play", "card": card})
    assert st.phase == "five" and st.current_seat() == 2
    assert st.legal_actions() == [
        {"type": "five", "as": 5},
        {"type": "five", "as": 0},
        {"type": "five", "as": 10},
    ]
    events = st.apply({"type": "five", "as": 10})
    assert st.scores[2] == 2
    adopt_ev = next(e for e in events if e["type"] == "adopt")
    assert adopt_ev["suit"] == "M" and adopt_ev["rightholders"] == [0, 2]
    assert st.phase == "build" and st.current_seat() == 0


def test_five_conversion_not_offered_when_unaffordable() -> None:
    st = _round2_trick([["M9", "I1"], ["I3", "I2"], ["M5", "E7"], ["E2", "E3"]], 0, [4, 4, 1, 4])
    for card in ("M9", "I3", "M5", "E2"):
        st.apply({"type": "play", "card": card})
    assert st.legal_actions() == [{"type": "five", "as": 5}, {"type": "five", "as": 0}]
    st.scores[2] = 0
    assert st.legal_actions() == [{"type": "five", "as": 5}]


def test_fives_decided_clockwise_from_the_leader() -> None:
    st = _round2_trick([["M5", "I1"], ["I3", "I2"], ["E5", "E7"], ["H5", "E3"]], 2, [4] * 4)
    for card in ("E5", "H5", "M5", "I3"):  # seats 2, 3, 0, 1
        st.apply({"type": "play", "card": card})
    order = []
    while st.phase == "five":
        order.append(st.current_seat())
        st.apply({"type": "five", "as": 5})
    assert order == [2, 3, 0]
    # All different: the leader (seat 2) is Rightholder 1 alone.
    assert st.rh == [2, None]


def test_rightholder_1_leads_the_next_meeting() -> None:
    st = _round2_trick([["H9", "I1"], ["I6", "I2"], ["H2", "E7"], ["H1", "E3"]], 0, [0] * 4)
    for card in ("H9", "I6", "H2", "H1"):
        st.apply({"type": "play", "card": card})
    assert st.rh == [3, 0]
    st.apply({"type": "decline"})
    st.apply({"type": "decline"})
    assert st.phase == "meeting" and st.leader == 3 and st.current_seat() == 3
    assert st.trick == 2
