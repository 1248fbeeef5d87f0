"""Pictures drawn for a seat (``viewer=k``): what the seat cannot know is drawn as card backs
with their count, so the picture is the same for every redraw of the hidden information
(``resample_hidden``): it can neither leak nor flicker between polls. The seat's own cards are
still drawn face up, the play page's click targets still land, and without a viewer (a replay
after the match) every hand is drawn as before."""

from __future__ import annotations

import io
import random
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from test_action_targets import count_matches

from arena import pictures
from arena.human_seat import HumanRequest, TerminalChannel
from arena.referee import run_match
from arena.viewer import steps as replay_steps
from games.base import GameError, GameState
from games.registry import get_game
from games.tri_area.rounds import SEATS as TRI_AREA_SEATS
from games.trnd import cards as trnd_cards

#: Games with hidden information, and the table sizes tried.
HIDDEN = [("trnd", 3), ("trnd", 5), ("tri-area", 2), ("tri-area", 4), ("manhattan-traffiq", 3)]


def positions(slug: str, players: int, seed: int, every: int = 3) -> Iterator[GameState]:
    """Every ``every``-th position of one seeded random game, and its last one."""
    state = get_game(slug).new_game(players, seed, {"max_rounds": 2} if slug == "trnd" else {})
    rng = random.Random(seed)
    k = 0
    while not state.is_over() and k < 400:
        if k % every == 0:
            yield state
        state.apply(rng.choice(state.legal_actions()))
        k += 1
    yield state


def drawn(slug: str, state: GameState, viewer: int | None) -> tuple[str, str]:
    data = state.to_json()
    svg = pictures.render_svg(slug, data, viewer=viewer)
    text = pictures.render_text(slug, data, viewer=viewer)
    assert svg is not None and text is not None
    return svg, text


def hidden_counts(svg: str, seat_of: dict[int, ET.Element]) -> dict[int, int]:
    """Per seat group: the count on its face-down hand (0: none drawn)."""
    return {
        seat: sum(int(g.get("data-count", 0)) for g in group.iter() if g.get("data-hidden"))
        for seat, group in seat_of.items()
    }


def seat_groups(svg: str) -> dict[int, ET.Element]:
    root = ET.fromstring(svg)
    return {int(g.get("data-seat", "")): g for g in root.iter() if g.get("data-seat") is not None}


@pytest.mark.parametrize(("slug", "players"), HIDDEN)
def test_a_seats_picture_does_not_depend_on_what_it_cannot_know(slug: str, players: int) -> None:
    checked = leaky = 0
    for seed in range(3):
        for state in positions(slug, players, seed):
            for seat in range(players):
                truth = drawn(slug, state, seat)
                for redraw in (seed * 7 + 1, seed * 7 + 2):
                    other = state.resample_hidden(seat, redraw)
                    assert drawn(slug, other, seat) == truth
                    # the whole-state picture of the redraw does differ: the test can fail
                    leaky += drawn(slug, other, None) != drawn(slug, state, None)
                checked += 1
    assert checked > 50 * players and leaky > checked


def own_and_others(slug: str, state: GameState, viewer: int, svg: str) -> None:
    """The viewer's own hand face up; every other hand as backs with its true size."""
    data = state.to_json()
    groups = seat_groups(svg)
    backs = hidden_counts(svg, groups)
    if slug == "trnd":
        for seat in range(len(data["hands"])):
            if data["out"][seat] is not None:
                continue
            hand, known = data["hands"][seat], data["known"][seat]
            face_up = hand if seat == viewer else known
            for t, k in enumerate(face_up):
                if k:
                    name = trnd_cards.NAMES[t]
                    found = [g for g in groups[seat].iter() if g.get("data-card") == name]
                    assert found, (seat, name)
            assert backs[seat] == (0 if seat == viewer else sum(hand) - sum(known))
    elif slug == "tri-area":
        for seat in range(TRI_AREA_SEATS):
            hand, decl = data["hands"][seat], data["lead_decl"][seat]
            faces = [g.get("data-card") for g in groups[seat].iter() if g.get("data-card")]
            decl_hidden = decl is not None and not data["revealed"] and seat != viewer
            shown_decl = [] if decl is None or decl_hidden else [decl]
            assert faces == (hand if seat == viewer else []) + shown_decl
            assert backs[seat] == (0 if seat == viewer else len(hand) + decl_hidden)
    else:
        for seat, hand in enumerate(data["hands"]):
            tiles = [g.get("data-hand") for g in groups[seat].iter() if g.get("data-hand")]
            assert tiles == (hand[:9] if seat == viewer else [])
            assert backs[seat] == (0 if seat == viewer else len(hand))


@pytest.mark.parametrize(("slug", "players"), HIDDEN)
def test_the_seat_sees_its_own_cards_and_the_others_as_counted_backs(
    slug: str, players: int
) -> None:
    for state in positions(slug, players, seed=11, every=5):
        for seat in range(players):
            svg, text = drawn(slug, state, seat)
            own_and_others(slug, state, seat, svg)
            assert "(you)" in svg
            assert "(you)" in text or ", you)" in text


@pytest.mark.parametrize(("slug", "players"), HIDDEN)
def test_without_a_viewer_every_hand_is_drawn_face_up(slug: str, players: int) -> None:
    for state in positions(slug, players, seed=5, every=7):
        svg, text = drawn(slug, state, None)
        assert 'data-hidden="' not in svg and "hidden" not in text.replace("lead (hidden)", "")
        assert "(you)" not in svg + text
        data = state.to_json()
        if slug == "manhattan-traffiq":
            for seat, hand in enumerate(data["hands"]):
                tiles = [g.get("data-hand") for g in seat_groups(svg)[seat].iter()]
                assert [t for t in tiles if t] == hand[:9]


def test_trnd_text_hides_the_draw_pile_top_from_a_seat_only() -> None:
    state = get_game("trnd").new_game(3, 4, {})
    assert "draw pile top" in drawn("trnd", state, None)[1]
    assert "draw pile top" not in drawn("trnd", state, 0)[1]
    assert "hidden" in drawn("trnd", state, 0)[1]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_trishaw_frenzy_has_no_hidden_information_so_a_viewer_changes_nothing(
    players: int,
) -> None:
    for state in positions("trishaw-frenzy", players, seed=players, every=4):
        whole = drawn("trishaw-frenzy", state, None)
        for seat in range(players):
            assert drawn("trishaw-frenzy", state, seat) == whole
            assert drawn("trishaw-frenzy", state.resample_hidden(seat, 99), seat) == whole


@pytest.mark.parametrize(
    ("slug", "players"), [("trnd", 3), ("tri-area", 4), ("manhattan-traffiq", 3)]
)
def test_the_acting_seats_click_targets_land_on_its_own_picture(slug: str, players: int) -> None:
    landed = 0
    for seed in range(2):
        for state in positions(slug, players, seed, every=1):
            if state.is_over():
                continue
            seat = state.current_seat()
            assert seat is not None
            view = state.resample_hidden(seat, seed).to_json()
            svg = pictures.render_svg(slug, view, viewer=seat)
            assert svg is not None
            legal = state.legal_actions()
            for selector in pictures.action_targets(slug, view, legal):
                if selector is not None:
                    assert count_matches(svg, selector) >= 1, selector
                    landed += 1
    assert landed > 100


@pytest.mark.parametrize(
    ("slug", "players"), [("trnd", 3), ("tri-area", 2), ("manhattan-traffiq", 2)]
)
def test_a_viewer_outside_the_table_is_refused(slug: str, players: int) -> None:
    data = get_game(slug).new_game(players, 1, {}).to_json()
    for bad in (-1, players):
        with pytest.raises(GameError, match="no seat"):
            pictures.render_svg(slug, data, viewer=bad)
        with pytest.raises(GameError, match="no seat"):
            pictures.render_text(slug, data, viewer=bad)


def test_the_terminal_shows_the_same_picture_whatever_the_redraw() -> None:
    state = get_game("trnd").new_game(3, 8, {})
    shown = []
    for redraw in (1, 2):
        out = io.StringIO()
        channel = TerminalChannel(io.StringIO("0\n"), out)
        request = HumanRequest(
            match_id="m",
            game="trnd",
            seat=1,
            turn=0,
            observation=state.observation(1),
            legal=[{"type": "draw"}],
            labels=["draw"],
            view=pictures.seat_view(state, 1, redraw),
            deadline=time.time() + 60,
        )
        assert channel.ask(request) == 0
        shown.append(out.getvalue().split("legal actions:", 1)[0].replace(" 60 s", ""))
    assert shown[0] == shown[1]
    assert "seat 1 (you)" in shown[0] and "hidden" in shown[0]
    assert "redrawn at random" not in shown[0]


@pytest.mark.parametrize(
    ("slug", "players"), [("trnd", 3), ("tri-area", 2), ("manhattan-traffiq", 2)]
)
def test_the_replay_viewers_seat_view_draws_the_board_as_that_seat_knew_it(
    slug: str, players: int
) -> None:
    options = {"max_rounds": 1} if slug == "trnd" else {}
    replay = run_match(slug, ["builtin:random"] * players, seed=3, options=options).replay
    state = get_game(slug).new_game(players, 3, options)
    for n, decision in enumerate(replay["decisions"][:40]):
        if n % 4 == 0:
            whole = replay_steps.step(replay, n)
            assert 'data-hidden="' not in whole["svg"]
            for seat in range(players):
                mine = replay_steps.step(replay, n, seat)
                # the seat's picture, its "(you)" read "(this view)": anyone may look at a replay
                svg, text = drawn(slug, state, seat)
                assert "(you)" in svg + text and "(you)" not in mine["svg"] + mine["state_text"]
                assert (mine["svg"], mine["state_text"]) == (
                    svg.replace(" (you)", " (this view)"),
                    text.replace(" (you)", " (this view)"),
                )
                sizes = state.observation(seat)["hand_sizes"]
                others = [k for other, k in enumerate(sizes) if other != seat]
                assert ('data-hidden="hand"' in mine["svg"]) == any(others)
                assert mine["event_lines"] == whole["event_lines"]
        state.apply(decision["action"])
