"""The match page's viewer against the offline file (one viewer, issue 21): a replay fetched
from the site and turned into the offline page holds exactly the site's step JSON; the page
asks for ``logs.json`` only for a caller who may read some seat's log; the decisions worth a
look are listed for the caller's own seats only, each a link to its step."""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from matches.models import Match

from arena.viewer.notable import notable_decisions
from arena.viewer.offline import viewer_page
from arena.viewer.packing import unpack_steps
from tests.viewer_replays import SLOW_AT, decision_steps, played_on_site


@pytest.fixture
def match(games: dict[str, Any], settings: Any) -> Match:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    make = get_user_model().objects.create_user
    alice = make("alice", password="pw-alice-123")
    make("bob", password="pw-bob-123")
    make("staff", password="pw-staff-123", is_staff=True)
    game = games["tri-area"]
    return played_on_site(alice, game)


def client_of(name: str | None) -> Client:
    client = Client()
    if name:
        client.force_login(get_user_model().objects.get(username=name))
    return client


def test_the_offline_file_of_a_fetched_replay_holds_the_sites_steps(match: Match) -> None:
    client = Client()
    public = client.get(f"/matches/{match.pk}/replay.json").json()
    block = viewer_page(public).split('id="replay-steps">', 1)[1].split("</script>", 1)[0]
    embedded = unpack_steps(json.loads(block))
    total = len(public["decisions"])
    for n in range(total + 1):
        assert embedded[n][0] == client.get(f"/matches/{match.pk}/steps/{n}.json").json()
    for n in (0, 1, total):
        for seat in (0, 1):
            site = client.get(f"/matches/{match.pk}/steps/{n}.json?seat={seat}").json()
            assert site["seat_view"] == embedded[n][1][seat]


@pytest.mark.parametrize(
    ("who", "reads_logs", "own"),
    [(None, False, False), ("bob", False, False), ("alice", True, True), ("staff", True, False)],
)
def test_logs_url_and_decisions_worth_a_look_by_caller(
    match: Match, who: str | None, reads_logs: bool, own: bool
) -> None:
    html = client_of(who).get(f"/matches/{match.pk}/").content.decode()
    assert (f'data-logs-url="/matches/{match.pk}/logs.json"' in html) is reads_logs
    assert ('data-notable-seat="0"' in html) is own
    assert 'data-notable-seat="1"' not in html  # the built-in seat is nobody's here
    assert 'href="/static/arena_viewer/replay.css"' in html
    if own:
        found = notable_decisions(match.replay, 0)
        slow = decision_steps(match.replay, 0)[SLOW_AT - 1]
        assert found["slowest"][0]["step"] == slow
        section = html.split('data-notable-seat="0"', 1)[1].split("</section>", 1)[0]
        turn = match.replay["decisions"][slow - 1]["turn"]
        assert f'<a href="#step={slow}">decision #{turn}</a>' in section
        assert section.count('<a href="#step=') == len(found["slowest"]) + len(found["faults"])
        assert escape(match.seats.get(seat=0).faults[0]["detail"]) in section


def test_the_faults_reasons_travel_with_the_page(match: Match) -> None:
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    block = html.split('<script id="replay-seats" type="application/json">', 1)[1]
    seats = json.loads(block.split("</script>", 1)[0])
    assert seats["names"] == {"0": "chatty", "1": "builder"}
    assert seats["faults"]["0"] == match.seats.get(seat=0).faults


@pytest.mark.django_db
def test_the_step_json_of_no_match_is_json_too(client: Client) -> None:
    """The viewer's JSON endpoints answer an unknown (or unseen private) match in JSON, as
    logs.json does, not with the site's HTML error page."""
    for url in ("/matches/987654/steps/0.json", "/matches/987654/logs.json"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.json() == {"error": "No match 987654"}, url
