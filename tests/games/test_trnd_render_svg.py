"""TRND's SVG picture: well-formed standalone SVG for states all through seeded games (3 to 5
players, random and greedy bots so that clear-outs and game ends happen), each seat's score and
whole hand shown, market cards in their slots, deterministic, small and fast."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from games.base import GameError
from games.registry import get_bot, get_game
from games.rng import derive_seed
from games.trnd import cards as C
from games.trnd.render_svg import MARKET_X, SLOT_CELL, render_svg

GAME = get_game("trnd")
NS = "{http://www.w3.org/2000/svg}"
SEEDS = range(4)


def states(players: int, seed: int, bot: str, every: int, max_rounds: int = 3) -> Iterator[dict]:
    """Every ``every``-th state of a game of ``bot`` players, its first and its final state."""
    options = {"max_rounds": max_rounds}
    state = GAME.new_game(players, seed, options)
    opts = GAME.check_options(options)
    bots = [get_bot("trnd", bot)(s, players, opts, derive_seed(seed, s)) for s in range(players)]
    n = 0
    yield state.to_json()
    while not state.is_over():
        seat = state.current_seat()
        legal = state.legal_actions()
        state.apply(legal[bots[seat].act(state.observation(seat), legal)])
        n += 1
        if n % every == 0 or state.is_over():
            yield state.to_json()


def texts(node: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in node.iter(f"{NS}text")]


def groups(root: ET.Element, attr: str) -> dict[str, ET.Element]:
    return {g.get(attr): g for g in root.iter(f"{NS}g") if g.get(attr) is not None}


def cards_in(node: ET.Element) -> list[str]:
    return [g.get("data-card") for g in node.iter(f"{NS}g") if g.get("data-card")]


def check_picture(data: dict) -> ET.Element:
    svg = render_svg(data)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") and root.get("width") == "100%"
    assert "<script" not in svg.lower()
    assert svg.count("http") == 1 and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert "href" not in svg
    assert len(svg) < 60_000
    seats = groups(root, "data-seat")
    assert sorted(seats) == [str(s) for s in range(data["players"])]
    for seat, panel in seats.items():
        s = int(seat)
        shown = texts(panel)
        assert str(data["totals"][s]) in shown and f"Seat {s}" in shown
        out = data["out"][s]
        if out is None:
            held = {C.NAMES[t]: k for t, k in enumerate(data["hands"][s]) if k}
            assert sorted(cards_in(panel)) == sorted(held)
            # One card per type held, with its count as a badge.
            counted = {
                cards_in(g)[0]: int(g.get("data-count"))
                for g in panel.iter(f"{NS}g")
                if g.get("data-count")
            }
            assert counted == held
            assert all(
                str(k) in texts(g) for g in panel.iter(f"{NS}g") if (k := g.get("data-count"))
            )
        else:
            assert cards_in(panel) == [C.NAMES[out[0]]]
            assert f"\u00d7{out[1]}" in shown and "cleared out" in shown
    slots = groups(root, "data-slot")
    for slot, t in enumerate(data["market"]):
        expected = [] if t < 0 else [C.NAMES[t]]
        assert cards_in(slots[str(slot)]) == expected
        if t < 0:
            assert "taken" in texts(slots[str(slot)])
    zones = groups(root, "data-zone")
    assert cards_in(zones["discard"]) == [C.NAMES[data["pile"][-1]]]
    assert zones["draw"].get("data-count") == str(len(data["deck"]))
    assert str(len(data["deck"])) in texts(zones["draw"])
    return root


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_whole_games_render_valid_svg(players: int, bot: str) -> None:
    for seed in SEEDS:
        rendered = 0
        for data in states(players, seed, bot, every=4):
            check_picture(data)
            rendered += 1
        assert data["phase"] == "over" and rendered > 10


def test_clear_outs_discards_and_game_end_are_drawn() -> None:
    seen = set()
    for players in (3, 5):
        for data in states(players, 11, "greedy", every=1, max_rounds=60):
            root = check_picture(data)
            shown = " ".join(texts(root))
            if any(data["out"]):
                seen.add("cleared")
            if data["phase"] == "discard":
                seen.add("discard")
                assert f"Seat {data['seat']} discards" in shown
            elif data["phase"] == "choose_action":
                assert f"to act: Seat {data['seat']}" in shown
        result = GAME.state_from_json(data).result()
        winner = result.ranks.index(1)
        assert f"Seat {winner} wins" in shown and "1st place" in shown
    assert seen == {"cleared", "discard"}


def test_market_slots_run_clockwise_around_the_draw_pile() -> None:
    root = check_picture(GAME.new_game(4, 7).to_json())
    slots = groups(root, "data-slot")

    def position(slot: int) -> tuple[float, float]:
        rect = next(slots[str(slot)].iter(f"{NS}rect"))
        return float(rect.get("x")), float(rect.get("y"))

    xs = sorted({position(s)[0] for s in range(8)})
    ys = sorted({position(s)[1] for s in range(8)})
    assert len(xs) == len(ys) == 3 and xs[0] == MARKET_X
    for slot, (col, row) in enumerate(SLOT_CELL):
        assert position(slot) == (xs[col], ys[row])
    assert position(0)[1] < position(3)[1] < position(4)[1]  # top row, right middle, bottom
    assert position(3)[0] > position(7)[0]  # slot 3 right of the draw pile, slot 7 left


def test_taken_slot_and_hand_follow_the_state() -> None:
    state = GAME.new_game(3, 2)
    while state.phase != "discard":
        state.apply(state.legal_actions()[-1])  # take from slot 7 as soon as allowed
    data = state.to_json()
    assert data["market"][7] == -1
    root = check_picture(data)  # slot 7 shows "taken", the hand holds the taken card
    taken = state.hands[state.seat]
    panel = groups(root, "data-seat")[str(state.seat)]
    assert sorted(cards_in(panel)) == sorted(C.NAMES[t] for t, k in enumerate(taken) if k)


def test_deterministic_and_independent_of_json_round_trip() -> None:
    for data in list(states(4, 5, "greedy", every=9)):
        assert render_svg(data) == render_svg(data)
        assert render_svg(data) == render_svg(GAME.state_from_json(data).to_json())


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(GameError, match="malformed state"):
        render_svg({"players": 4})


def test_the_position_between_rounds_shows_nobody_to_act() -> None:
    """The position a replay viewer keeps before a deal (round points settled) is nobody's turn:
    no seat is marked to act, the status says the round ended; live positions mark one seat."""
    from games.trnd.render import render_text

    state = GAME.new_game(3, 5, {"max_rounds": 3})
    kept = 0
    while not state.is_over():
        live = render_svg(state.to_json())
        assert live.count(">to act<") + live.count(">discarding<") == 1
        _, before_deal = state.apply_keeping_round_end(state.legal_actions()[0])
        if before_deal is not None:
            kept += 1
            svg = render_svg(before_deal)
            assert ">to act<" not in svg and ">discarding<" not in svg
            assert f"end of round {before_deal['round']}" in svg
            text = render_text(before_deal)
            assert f"round {before_deal['round']} over" in text
            assert not any(line.startswith(">") for line in text.splitlines())
    assert kept == 2  # three rounds: two deals after the first
