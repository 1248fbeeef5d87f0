"""A tournament's results in a real browser under the site's CSP: the knockout bracket's
links lead to the replays, "Copy embed code" works, and the embeddable standings show inside
a frame of another page (issue 22, item 5)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from catalog.services import sync_games
from competitions.management.commands.demo import demo_entrants
from competitions.models import Tournament, TournamentStatus
from competitions.tournaments.services import create_tournament, start_tournament
from playwright.sync_api import expect

from .conftest import shoot


@pytest.fixture
def cup(transactional_db: None) -> Tournament:
    game = {g.slug: g for g in sync_games()}["manhattan-traffiq"]
    entrants = demo_entrants(game, 4)[:5]
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=game,
        name="Friday cup",
        entrants=entrants,
        format="knockout",
        seed=8,
    )
    start_tournament(t)  # eager: the matches play as the start commits
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    return t


def test_bracket_links_and_the_embed_code(csp_page: Any, cup: Tournament) -> None:
    csp_page.goto(f"/tournaments/{cup.pk}/")
    bracket = csp_page.locator("svg.bracket")
    expect(bracket).to_be_visible()
    shoot(csp_page, "tournament-bracket")
    final = cup.matches.get(competition_link__round=2)
    csp_page.locator(f'svg.bracket a[data-match="{final.pk}"]').first.click()
    csp_page.wait_for_url(f"**/matches/{final.pk}/")

    csp_page.goto(f"/tournaments/{cup.pk}/")
    csp_page.get_by_text("Embed the standings on your own site").click()
    code = csp_page.locator("textarea[readonly]")
    assert f"/tournaments/{cup.pk}/embed/" in code.input_value()
    csp_page.get_by_role("button", name="Copy embed code").click()
    expect(csp_page.get_by_text("Copied.")).to_be_visible()


@pytest.fixture
def club_site() -> Iterator[Callable[[str], str]]:
    """``club_site(html)``: the address of a page with that HTML on another origin (a small
    server of its own on another port: a real loopback address, as Chromium's local network
    checks want for a frame of the live server)."""
    pages: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def serve(html: str) -> str:
        pages["/club/"] = html.encode()
        return f"http://127.0.0.1:{server.server_port}/club/"

    yield serve
    server.shutdown()
    server.server_close()


def test_the_embed_shows_inside_another_sites_frame(
    csp_page: Any, cup: Tournament, club_site: Callable[[str], str]
) -> None:
    csp_page.goto("/healthz")
    embed = f"{csp_page.url.rsplit('/', 1)[0]}/tournaments/{cup.pk}/embed/"
    csp_page.goto(club_site(f'<h1>Our club</h1><iframe src="{embed}" width="640" height="420">'))
    frame = csp_page.frame_locator("iframe")
    expect(frame.get_by_text("Friday cup")).to_be_visible()
    expect(frame.locator("table.standings-tiebreaks tbody tr")).to_have_count(5)
    expect(frame.get_by_text("Winner:")).to_be_visible()
    shoot(csp_page, "tournament-embed")
