"""The server-rendered pages, with real rows: matches played by the built-in bots."""

from __future__ import annotations

import pytest
from bots.models import Bot
from bots.services import ensure_builtin_bots
from competitions.tournaments.services import create_tournament, start_tournament
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match

from tests.site_fixtures import BOT_SOURCE, make_zip


@pytest.fixture
def tri_match(games):
    versions = [b.latest_version() for b in ensure_builtin_bots(games["tri-area"])]
    return dispatch_match(create_match(game=games["tri-area"], versions=versions, seed=4))


@pytest.fixture
def trnd_match(trnd, three_versions):
    return dispatch_match(create_match(game=trnd, versions=three_versions, seed=2))


def test_home_shows_games_matches_and_top_bots(client, tri_match) -> None:
    html = client.get("/").content.decode()
    for name in ("TRND", "Tri*Area", "Trishaw Frenzy", "Manhattan TraffIQ"):
        assert name in html
    assert f'href="/matches/{tri_match.pk}/"' in html
    assert "builder" in html and "arena new-bot" in html


def test_game_page_leaderboard(client, tri_match) -> None:
    html = client.get("/games/tri-area/").content.decode()
    assert "Leaderboard" in html and "provisional" in html
    winner = tri_match.seats.get(rank=1).bot_version.bot
    assert f'href="/bots/{winner.pk}/"' in html
    assert client.get("/games/no-such-game/").status_code == 404


def test_match_list_filters_and_paginates(client, tri_match, trnd_match) -> None:
    html = client.get("/matches/?game=trnd").content.decode()
    assert f"/matches/{trnd_match.pk}/" in html and f"/matches/{tri_match.pk}/" not in html
    html = client.get("/matches/?status=error").content.decode()
    assert "No matches" in html and f"/matches/{tri_match.pk}/" not in html
    bot = tri_match.seats.first().bot_version.bot_id
    html = client.get(f"/matches/?bot={bot}").content.decode()
    assert f"/matches/{tri_match.pk}/" in html and f"/matches/{trnd_match.pk}/" not in html
    # Bad filter values are a 400 that says which filter is wrong; a page past the end is not.
    bad = client.get("/matches/?status=bogus&bot=x")
    assert bad.status_code == 400 and "Bad filter" in bad.content.decode()
    assert client.get("/matches/?page=99").status_code == 200


def test_match_detail_and_replay_steps_with_state_picture(client, tri_match) -> None:
    html = client.get(f"/matches/{tri_match.pk}/").content.decode()
    assert 'id="replay"' in html and "Tri*Area" in html and 'data-field="state"' in html
    total = len(tri_match.replay["decisions"])
    first = client.get(f"/matches/{tri_match.pk}/steps/0.json").json()
    assert first["decision"] is None and first["total"] == total and first["state_text"]
    later = client.get(f"/matches/{tri_match.pk}/steps/3.json").json()
    assert later["decision"] == {k: tri_match.replay["decisions"][2][k] for k in later["decision"]}
    assert later["state_text"] != first["state_text"]
    assert client.get(f"/matches/{tri_match.pk}/steps/{total + 1}.json").status_code == 404


def test_replay_without_renderer_shows_events(client, trnd_match, monkeypatch) -> None:
    # A game without render.render_text (nor render_svg): the viewer falls back to the events.
    from arena.viewer import steps as replay_steps

    monkeypatch.setattr(replay_steps, "renderer_for", lambda slug: None)
    monkeypatch.setattr(replay_steps, "svg_renderer_for", lambda slug: None)
    html = client.get(f"/matches/{trnd_match.pk}/").content.decode()
    assert "public events of each decision are shown instead" in html
    step = client.get(f"/matches/{trnd_match.pk}/steps/1.json").json()
    assert step["state_text"] is None and step["decision"]["events"]


def test_error_match_page_explains(client, trnd, three_versions) -> None:
    m = create_match(game=trnd, versions=three_versions)
    Match.objects.filter(pk=m.pk).update(status=MatchStatus.ERROR, error="worker died")
    html = client.get(f"/matches/{m.pk}/").content.decode()
    assert "worker died" in html and "This match has no replay." in html
    assert client.get("/matches/99999/").status_code == 404


def test_tournament_pages(client, trnd, three_versions, django_capture_on_commit_callbacks):
    t = create_tournament(
        organiser=three_versions[0].bot.owner,
        game=trnd,
        name="Spring Cup",
        entrants=three_versions,
        players_per_match=3,
    )
    with django_capture_on_commit_callbacks(execute=True):
        start_tournament(t)
    assert "Spring Cup" in client.get("/tournaments/").content.decode()
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Standings" in html and "random-2" in html and "Finished" in html


def test_upload_flow(client, user, trnd) -> None:
    url = reverse("bots:create")
    assert client.get(url).status_code == 302  # login required
    client.force_login(user)
    bad = client.post(
        url,
        {
            "game": trnd.pk,
            "name": "zippy",
            "code": SimpleUploadedFile("b.zip", make_zip({"x.py": b"1"})),
        },
    )
    assert "no main.py at its top level" in bad.content.decode()
    assert not Bot.objects.filter(name="zippy").exists()
    ok = client.post(
        url,
        {
            "game": trnd.pk,
            "name": "zippy",
            "description": "first try",
            "code": SimpleUploadedFile("main.py", BOT_SOURCE),
        },
    )
    bot = Bot.objects.get(name="zippy", owner=user)
    assert ok.status_code == 302 and ok["Location"] == f"/bots/{bot.pk}/"
    page = client.get(ok["Location"]).content.decode()
    assert "zippy v1 is uploaded" in page and "Upload a new version" in page
    r = client.post(
        f"/bots/{bot.pk}/upload/",
        {"code": SimpleUploadedFile("b.zip", make_zip({"main.py": BOT_SOURCE}))},
    )
    assert r.status_code == 302 and bot.versions.count() == 2


def test_only_owner_uploads(client, other_user, user_bot) -> None:
    client.force_login(other_user)
    r = client.post(
        f"/bots/{user_bot.pk}/upload/", {"code": SimpleUploadedFile("main.py", BOT_SOURCE)}
    )
    assert r.status_code == 403 and not user_bot.versions.exists()


def test_signup_login_logout(client, db) -> None:
    r = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": "a-long-pass-42!", "password2": "a-long-pass-42!"},
    )
    assert r.status_code == 302
    assert "carol" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()
    r = client.post("/accounts/login/", {"username": "carol", "password": "a-long-pass-42!"})
    assert r.status_code == 302
