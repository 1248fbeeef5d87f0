"""A queued match's page follows it: the status JSON it polls (one query, briefly cacheable),
the live region and its script; and a challenge is labelled "Friendly" wherever matches are
listed."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from matches.models import Match, MatchKind, MatchStatus
from matches.services import create_match, dispatch_match


@pytest.fixture
def queued(trnd: Any, three_versions: list[Any]) -> Match:
    return create_match(game=trnd, versions=three_versions, seed=3)


def test_status_json_is_one_query_and_briefly_cacheable(client: Any, queued: Match) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/matches/{queued.pk}/status.json")
    assert response.status_code == 200
    assert response.json() == {"status": "queued", "done": False, "stamp": "queued.0"}
    assert len(queries.captured_queries) == 1
    assert response["Cache-Control"] == "public, max-age=2"

    finished = dispatch_match(queued)
    body = client.get(f"/matches/{queued.pk}/status.json").json()
    assert body["done"] is True and body["status"] == "finished"
    assert body["stamp"] == f"finished.{finished.attempts}"
    missing = client.get("/matches/999999/status.json")
    assert missing.status_code == 404 and missing.json() == {"error": "No match 999999"}
    assert client.post(f"/matches/{queued.pk}/status.json").status_code == 405


def test_a_queued_page_is_live_and_says_it_follows_the_match(client: Any, queued: Match) -> None:
    html = client.get(f"/matches/{queued.pk}/").content.decode()
    assert 'id="match-live"' in html and " data-live>" in html
    assert f'data-status-url="/matches/{queued.pk}/status.json"' in html
    assert 'data-stamp="queued.0"' in html
    assert "matches/follow.js" in html
    assert "This match is queued: its result and replay appear here when it ends" in html
    assert "This match has no replay." not in html
    assert 'id="replay"' not in html

    dispatch_match(queued)
    html = client.get(f"/matches/{queued.pk}/").content.decode()
    assert 'id="match-live"' in html and "data-live" not in html
    assert "matches/follow.js" not in html
    # the viewer and its seat names sit inside the live part, so a redraw brings them both
    live = html.split('id="match-live"', 1)[1]
    assert 'id="replay"' in live and 'id="replay-seats"' in live


def test_a_running_match_says_running(client: Any, queued: Match) -> None:
    Match.objects.filter(pk=queued.pk).update(status=MatchStatus.RUNNING, attempts=1)
    html = client.get(f"/matches/{queued.pk}/").content.decode()
    assert 'data-stamp="running.1"' in html and "This match is running:" in html


def test_friendly_label_on_challenges_only(
    client: Any, trnd: Any, three_versions: list[Any]
) -> None:
    friendly = create_match(
        game=trnd, versions=three_versions, seed=1, kind=MatchKind.CHALLENGE, rated=False
    )
    ladder = create_match(game=trnd, versions=three_versions, seed=2, kind=MatchKind.LADDER)
    bot_id = three_versions[0].bot_id

    def labelled(url: str, match: Match) -> bool:
        html = client.get(url).content.decode()
        row = html.split(f'href="/matches/{match.pk}/"', 1)[1].split("</tr>", 1)[0]
        return ">Friendly</span>" in row

    for url in ("/matches/", f"/bots/{bot_id}/", "/"):
        assert labelled(url, friendly), url
        assert not labelled(url, ladder), url
    page = client.get(f"/matches/{friendly.pk}/").content.decode()
    assert 'class="badge friendly"' in page
    assert "played for fun, not rated" in page
    assert 'class="badge friendly"' not in client.get(f"/matches/{ladder.pk}/").content.decode()


def test_match_lists_read_the_kind_without_a_query_per_row(
    client: Any, trnd: Any, three_versions: list[Any]
) -> None:
    def list_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/matches/").status_code == 200
        return len(queries.captured_queries)

    list_queries()  # the site's first page: the page cache's site-wide stamp is made once
    create_match(game=trnd, versions=three_versions, kind=MatchKind.CHALLENGE, rated=False)
    few = list_queries()
    for seed in range(6):
        create_match(game=trnd, versions=three_versions, seed=seed, kind=MatchKind.CHALLENGE)
    assert list_queries() == few
