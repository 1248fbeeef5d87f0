"""The ladder's pages and REST API: who sees what, search, charts, challenges, bounded queries."""

from __future__ import annotations

import re
from typing import Any

import pytest
from bots.models import Bot, VersionStatus
from bots.services import create_bot, upload_version
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from ladder.models import LadderEntry
from matches.models import Match, MatchKind
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.site_fixtures import BOT_SOURCE

from .test_ladder import CRASH_SOURCE


@pytest.fixture(autouse=True)
def _ladder_settings(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.ARENA_LADDER_BUDGET = 2
    settings.ARENA_LADDER_PLACEMENT = 2


def api_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def played(user_bot: Bot, builtin_versions: Any, rounds) -> Bot:
    """``user_bot`` qualified, placed, with a few rated ladder matches."""
    upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    rounds(user_bot.game, 5, seed=7)
    return user_bot


def test_failed_stderr_is_for_the_owner_only(
    user, other_user, user_bot, builtin_versions, rounds
) -> None:
    upload_version(bot=user_bot, filename="main.py", data=CRASH_SOURCE)
    rounds(user_bot.game, 1)
    owner, stranger = Client(), Client()
    owner.force_login(user)
    stranger.force_login(other_user)
    url = f"/bots/{user_bot.pk}/"
    assert "secret-trace: boom" in owner.get(url).content.decode()
    assert "secret-trace: boom" in owner.get("/bots/mine/").content.decode()
    page = stranger.get(url).content.decode()
    assert "Failed" in page and "secret-trace" not in page
    assert "secret-trace" not in Client().get(url).content.decode()
    mine = api_for(user).get(f"/api/bots/{user_bot.pk}/versions/").json()
    theirs = api_for(other_user).get(f"/api/bots/{user_bot.pk}/versions/").json()
    assert mine[0]["status"] == "failed" and "secret-trace" in mine[0]["failure_stderr"]
    assert theirs[0]["status"] == "failed" and "failure_stderr" not in theirs[0]


def test_api_upload_then_status_and_duplicate(user, user_bot, builtin_versions, rounds) -> None:
    api = api_for(user)
    url = f"/api/bots/{user_bot.pk}/versions/"
    first = api.post(url, {"code": SimpleUploadedFile("main.py", BOT_SOURCE)}, format="multipart")
    # Stored at once; a worker checks (compiles) its code before it qualifies.
    assert first.status_code == 201 and first.json()["status"] == "checking"
    again = api.post(url, {"code": SimpleUploadedFile("x.py", BOT_SOURCE)}, format="multipart")
    assert again.status_code == 409
    assert again.json()["existing_version"] == 1 and "identical" in again.json()["code"][0]
    rounds(user_bot.game, 1)
    assert api.get(url).json()[0]["status"] == "active"
    ladder = api.get(f"/api/bots/{user_bot.pk}/ladder/").json()
    assert ladder["in_placement"] and ladder["placement_owed"] == 2


def test_bot_page_chart_form_head_to_head(played: Bot, django_assert_max_num_queries) -> None:
    client = Client()
    # 30, and what keeping the page for the next anonymous visitor costs with the database
    # cache (foundation.page_cache: its parts, the page looked up and stored; on the site's
    # first page ever, also its site-wide stamp made)
    with django_assert_max_num_queries(38):
        page = client.get(f"/bots/{played.pk}/").content.decode()
    assert '<svg class="rating-chart"' in page and "<polyline" in page
    assert "Recent form" in page and "Head to head" in page
    # The chart is drawn on the server: the page's only script is the site-wide one that
    # shows times in the reader's zone.
    scripts = re.findall(r"<script[^>]*>", page)
    assert len(scripts) == 1 and "foundation/local_time" in scripts[0], scripts
    history = Client().get(f"/api/bots/{played.pk}/rating-history/").json()
    assert len(history) >= 2 and all("elo" in p for p in history)
    h2h = Client().get(f"/api/bots/{played.pk}/head-to-head/").json()
    assert h2h and h2h[0]["met"] == h2h[0]["ahead"] + h2h[0]["level"] + h2h[0]["behind"]


def test_leaderboard_sets_apart_placement_and_suspended(
    played: Bot, other_user, trnd, rounds
) -> None:
    entry = LadderEntry.objects.get(bot=played)
    newcomer = create_bot(owner=other_user, game=trnd, name="newcomer")
    v = upload_version(bot=newcomer, filename="main.py", data=BOT_SOURCE + b"#n\n")
    rounds(trnd, 1)
    v.refresh_from_db()
    assert v.status == VersionStatus.ACTIVE
    page = Client().get(f"/games/{trnd.slug}/").content.decode()
    assert "In placement" in page and "newcomer" in page.split("In placement")[1]
    entry.suspended_at = entry.last_match_at
    entry.suspended_reason = "test"
    entry.save()
    page = Client().get(f"/games/{trnd.slug}/").content.decode()
    assert played.name in page.split("Suspended")[1]
    board = Client().get(f"/api/games/{trnd.slug}/ladder/").json()
    flags = {e["name"]: (e["in_placement"], e["suspended"]) for e in board["entries"]}
    assert flags["newcomer"] == (True, False) and flags[played.name][1] is True
    assert "suspended_reason" not in board["entries"][0]


def test_bot_list_search_and_filter(user, trnd, games) -> None:
    create_bot(owner=user, game=trnd, name="Zebra crossing", description="stripes")
    create_bot(owner=user, game=games["tri-area"], name="Zebra two")
    page = Client().get("/bots/?q=zebra&game=trnd").content.decode()
    assert "Zebra crossing" in page and "Zebra two" not in page
    assert "Zebra two" in Client().get("/bots/?q=zebra").content.decode()
    api = Client().get("/api/bots/?search=zebra&game=trnd").json()
    assert [b["name"] for b in api["results"]] == ["Zebra crossing"]


def test_challenge_from_page_and_api(
    user, other_user, played, builtin_versions, settings, rounds, inline
) -> None:
    settings.ARENA_CHALLENGES_PER_DAY = 2
    theirs = create_bot(owner=other_user, game=played.game, name="rival")
    upload_version(bot=theirs, filename="main.py", data=BOT_SOURCE + b"#r\n")
    rounds(played.game, 1)
    client = Client()
    client.force_login(other_user)
    page = client.get(f"/bots/{played.pk}/").content.decode()
    assert "Challenge first-legal" in page
    greedy = builtin_versions[1].bot
    resp = inline(
        client.post, f"/bots/{played.pk}/challenge/", {"with": theirs.pk, "also": [greedy.pk]}
    )
    assert resp.status_code == 302 and "/matches/" in resp["Location"]
    api = api_for(other_user)
    ok = inline(
        api.post,
        "/api/challenges/",
        {"bot": theirs.pk, "opponents": [played.pk, greedy.pk]},
        format="json",
    )
    assert ok.status_code == 201 and ok.json()["game"] == "trnd"
    over = api.post(
        "/api/challenges/", {"bot": theirs.pk, "opponents": [played.pk, greedy.pk]}, format="json"
    )
    assert over.status_code == 400 and "used your 2 challenges" in str(over.json())
    assert api.get("/api/challenges/").json()["left_today"] == 0
    challenges = Match.objects.filter(kind=MatchKind.CHALLENGE)
    assert challenges.count() == 2 and all(m.status == "finished" for m in challenges)
    # Someone else's bot cannot be used.
    bad = api.post("/api/challenges/", {"bot": played.pk, "opponents": [theirs.pk]}, format="json")
    assert bad.status_code == 400


def test_pin_through_the_api(user, other_user, played, rounds) -> None:
    v2 = upload_version(bot=played, filename="main.py", data=BOT_SOURCE + b"#2\n")
    rounds(played.game, 1)
    v2.refresh_from_db()
    assert v2.status == VersionStatus.ACTIVE
    assert (
        api_for(other_user)
        .post(f"/api/bots/{played.pk}/pin/", {"version": 1}, format="json")
        .status_code
        == 403
    )
    assert (
        api_for(user).post(f"/api/bots/{played.pk}/pin/", {"version": 1}, format="json").status_code
        == 200
    )
    played.refresh_from_db()
    assert played.playing_version().number == 1
    assert (
        api_for(user).post(f"/api/bots/{played.pk}/pin/", {"version": 9}, format="json").status_code
        == 400
    )


def test_schema_lists_the_ladder_endpoints() -> None:
    schema = Client().get("/api/schema/").content.decode()
    for path in (
        "/api/games/{slug}/ladder/",
        "/api/bots/{id}/rating-history/",
        "/api/bots/{id}/head-to-head/",
        "/api/bots/{id}/pin/",
        "/api/challenges/",
    ):
        assert path in schema, path


def test_bot_page_history_follows_each_recorded_match(played: Bot, rounds) -> None:
    """The chart, form and head to head are drawn once per version of the bot's history
    (``foundation.stamps``, bumped after each recorded match of the bot commits)."""
    import re

    from ladder.selectors import recent_form

    def form_strip() -> list[str]:
        page = Client().get(f"/bots/{played.pk}/").content.decode()
        strip = page.split('<p class="form-strip">', 1)[1].split("</p>", 1)[0]
        return re.findall(r'title="match #(\d+)', strip)

    before = form_strip()
    assert before == form_strip()  # drawn from the cache
    assert before == [str(f.match_id) for f in recent_form(played)]
    for _ in range(3):
        rounds(played.game, 1, seed=11)
        now = [str(f.match_id) for f in recent_form(played)]
        if now != before:
            break
    assert now != before, "the bot played no new match"
    assert form_strip() == now


def test_leaderboard_follows_each_recorded_match(played: Bot, rounds) -> None:
    """The ranking is drawn once per version of the game's board (``foundation.stamps``, bumped
    after each recorded match of the game commits): the page shows new ratings at once."""
    import re

    from ratings.models import Rating

    def matches_column() -> dict[str, int]:
        page = Client().get(f"/games/{played.game.slug}/").content.decode()
        table = page.split('<table class="leaderboard">', 1)[1].split("</table>", 1)[0]
        rows = re.findall(r'<tr id="bot-(\d+)".*?\?bot=\d+">(\d+)</a>', table, re.S)
        return {bot: int(n) for bot, n in rows}

    def stored() -> dict[str, int]:
        return {
            str(r.bot_id): r.matches_played
            for r in Rating.objects.filter(game=played.game, matches_played__gt=0)
        }

    before = matches_column()
    assert before == matches_column()  # drawn from the cache
    rounds(played.game, 2, seed=13)
    after = matches_column()
    assert after != before
    assert {b: n for b, n in stored().items() if b in after} == after
