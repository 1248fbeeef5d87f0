"""The replay viewer's SVG picture: every step of a game that ships ``render_svg`` carries
one, the page shows it above the text picture, and a failing renderer never breaks a step."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET

import pytest
from bots.services import ensure_builtin_bots
from matches.services import create_match, dispatch_match

from arena.viewer import steps as replay_steps

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def trishaw_match(games):
    versions = [b.latest_version() for b in ensure_builtin_bots(games["trishaw-frenzy"])]
    return dispatch_match(create_match(game=games["trishaw-frenzy"], versions=versions, seed=3))


def test_every_trishaw_step_has_an_svg_picture(client, trishaw_match) -> None:
    total = len(trishaw_match.replay["decisions"])
    assert total > 10
    pictures = []
    for n in (0, 1, 2, total // 2, total):
        data = client.get(f"/matches/{trishaw_match.pk}/steps/{n}.json").json()
        assert data["state_text"], "the text picture stays"
        root = ET.fromstring(data["svg"])
        assert root.tag == f"{SVG_NS}svg" and root.get("viewBox")
        pictures.append(data["svg"])
    assert pictures[0] != pictures[1], "the first roll moves a trishaw"
    # the final picture says the game is over
    assert "Game over" in pictures[-1]


def test_match_page_shows_the_svg_and_keeps_the_text(client, trishaw_match) -> None:
    html = client.get(f"/matches/{trishaw_match.pk}/").content.decode()
    first = replay_steps.step(trishaw_match.replay, 0)
    figure = html.index('data-field="svg"')
    assert html.index("<svg", figure) < html.index('data-field="state"')
    assert first["svg"] in html, "step 0's picture is inserted as markup, unescaped"
    assert "<details" in html and 'data-field="state"' in html
    assert "public events of each decision are shown instead" not in html


def test_a_failing_svg_renderer_gives_none_and_a_log_line(
    client, trishaw_match, monkeypatch, caplog
) -> None:
    def broken(state):
        raise KeyError("pos")

    monkeypatch.setattr(replay_steps, "svg_renderer_for", lambda slug: broken)
    with caplog.at_level(logging.ERROR, logger="arena.viewer.steps"):
        data = client.get(f"/matches/{trishaw_match.pk}/steps/2.json").json()
        html = client.get(f"/matches/{trishaw_match.pk}/").content.decode()
    assert data["svg"] is None and data["state_text"] and data["decision"]
    assert "No picture for this step" in html and 'data-field="state"' in html
    assert any("render_svg failed" in r.getMessage() for r in caplog.records)


def test_a_renderer_returning_no_svg_is_dropped(trishaw_match, monkeypatch) -> None:
    monkeypatch.setattr(replay_steps, "svg_renderer_for", lambda slug: lambda s: "oops")
    assert replay_steps.step(trishaw_match.replay, 1)["svg"] is None


def test_renderers_are_the_ones_each_game_declares() -> None:
    import games.trishaw_frenzy
    from games.trishaw_frenzy.render import render_text
    from games.trishaw_frenzy.render_svg import render_svg

    assert games.trishaw_frenzy.ENTRY.render_svg is render_svg
    assert replay_steps.svg_renderer_for("trishaw-frenzy") is render_svg
    assert replay_steps.renderer_for("trishaw-frenzy") is render_text
    assert replay_steps.svg_renderer_for("no-such-game") is None
    assert replay_steps.renderer_for("no-such-game") is None


@pytest.mark.parametrize("seat", ["%C2%B2", "%D9%A1", str(10**20), "-1", "x"])
def test_a_seat_is_ascii_digits_or_a_400(client, trishaw_match, seat: str) -> None:
    """``?seat=²`` passed ``str.isdigit()`` and failed in ``int()``: it was a 500."""
    response = client.get(f"/matches/{trishaw_match.pk}/steps/1.json?seat={seat}")
    assert response.status_code == 400
    assert "seat must be a seat number" in response.json()["error"]
    assert client.get(f"/matches/{trishaw_match.pk}/steps/1.json?seat=1").status_code == 200
