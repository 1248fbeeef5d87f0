"""Who sees the published results: the embeddable standings may be framed by any site (and
only it), and a private tournament's results, exports, embed and API answer 404 to everyone
who is not a member (issue 22, items 2 and 5)."""

from __future__ import annotations

from typing import Any

import pytest
from audiences.models import Audience, AudienceMember, AudienceRole
from competitions.management.commands.demo import demo_entrants
from competitions.models import Tournament, Visibility
from competitions.tournaments.services import create_tournament, start_tournament
from django.contrib.auth import get_user_model
from django.test import Client


@pytest.fixture
def played(games: dict[str, Any], inline: Any) -> Tournament:
    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, 2)[:3]
    t = create_tournament(
        organiser=entrants[0].bot.owner, game=game, name="Class cup", entrants=entrants, seed=2
    )
    inline(start_tournament, t)
    t.refresh_from_db()
    return t


def urls(pk: int) -> list[str]:
    return [
        f"/tournaments/{pk}/standings.csv",
        f"/tournaments/{pk}/standings.json",
        f"/tournaments/{pk}/embed/",
        f"/api/tournaments/{pk}/standings/",
        f"/api/tournaments/{pk}/crosstable/",
    ]


def test_the_embed_may_be_framed_by_any_site_and_the_page_by_none(played, client: Client):
    embed = client.get(f"/tournaments/{played.pk}/embed/")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed
    csp = embed["Content-Security-Policy"]
    assert "frame-ancestors *" in csp
    assert "script-src 'self'" in csp  # the rest of the policy stays the site's
    html = embed.content.decode()
    assert "<nav" not in html and '<base target="_blank">' in html
    assert "Class cup" in html and "Buchholz" in html

    page = client.get(f"/tournaments/{played.pk}/")
    assert page["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]
    assert f"/tournaments/{played.pk}/embed/" in page.content.decode()  # the embed code
    for url in urls(played.pk)[:2]:
        assert client.get(url)["X-Frame-Options"] == "DENY"


def test_embed_top_is_checked(played, client: Client):
    assert client.get(f"/tournaments/{played.pk}/embed/?top=2").content.decode().count(
        'class="num"><b>'
    ) == 2  # fmt: skip
    for bad in ("0", "x", "99999", "-1", "１"):
        answer = client.get(f"/tournaments/{played.pk}/embed/?top={bad}")
        assert answer.status_code == 400, bad
        assert b"top must be" in answer.content


def test_a_private_tournament_shows_its_results_to_members_only(played, client: Client):
    audience = Audience.objects.create(label="class 4b")
    Tournament.objects.filter(pk=played.pk).update(visibility=Visibility.PRIVATE, audience=audience)
    users = get_user_model().objects
    member = users.create_user("pupil", password="pw-pupil-123")
    stranger = users.create_user("stranger", password="pw-stranger-123")
    AudienceMember.objects.create(audience=audience, user=member, role=AudienceRole.MEMBER)

    for url in urls(played.pk):
        assert client.get(url).status_code == 404, url  # signed out
    client.force_login(stranger)
    for url in urls(played.pk):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert b"Class cup" not in answer.content
    client.force_login(member)
    for url in urls(played.pk):
        assert client.get(url).status_code == 200, url
    page = client.get(f"/tournaments/{played.pk}/")
    assert page.status_code == 200
    assert b"only to its members while they are logged in" in page.content


def test_csv_cells_never_start_a_formula(played, client: Client):
    from bots.models import Bot

    first = played.entries.order_by("seed")[0]
    Bot.objects.filter(pk=first.version.bot_id).update(name='=HYPERLINK("http://x")')
    text = client.get(f"/tournaments/{played.pk}/standings.csv").content.decode()
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text


def test_a_draft_publishes_an_empty_table(games, client: Client):
    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, 2)[:3]
    t = create_tournament(
        organiser=entrants[0].bot.owner, game=game, name="Soon", entrants=entrants
    )
    csv_text = client.get(f"/tournaments/{t.pk}/standings.csv").content.decode()
    assert csv_text.splitlines() == [csv_text.splitlines()[0]]
    assert csv_text.startswith("position,bot_version,bot,version,owner,points,buchholz")
    data = client.get(f"/tournaments/{t.pk}/standings.json").json()
    assert data["standings"] == [] and data["winner"] is None and data["matches"] == []
    embed = client.get(f"/tournaments/{t.pk}/embed/").content.decode()
    assert "Not started yet: 3 entrants" in embed
    assert client.get("/tournaments/999999/embed/").status_code == 404


def test_a_deleted_account_leaves_the_cached_results_at_once(games, inline, client: Client):
    from accounts.deletion import DELETED_USERNAME, delete_account
    from bots.models import Bot

    game = games["manhattan-traffiq"]
    person = get_user_model().objects.create_user("leaving", password="pw-leaving-123")
    bot = Bot.objects.create(owner=person, game=game, name="leavers-bot")
    mine = bot.versions.create(number=1, builtin_name="random")
    t = create_tournament(
        organiser=person, game=game, name="Farewell", entrants=[mine, *demo_entrants(game, 2)[:2]]
    )
    inline(start_tournament, t)
    url = f"/tournaments/{t.pk}/standings.json"
    owners = {r["bot_version"]: (r["owner"], r["bot"]) for r in client.get(url).json()["standings"]}
    assert owners[mine.pk] == ("leaving", "leavers-bot")
    assert b"leavers-bot" in client.get(f"/tournaments/{t.pk}/").content  # cached now

    inline(delete_account, person)  # the stamps are bumped once it commits
    owners = {r["bot_version"]: (r["owner"], r["bot"]) for r in client.get(url).json()["standings"]}
    assert owners[mine.pk] == (DELETED_USERNAME, f"bot-{bot.pk}")
    for path in (f"/tournaments/{t.pk}/embed/", f"/tournaments/{t.pk}/standings.csv"):
        assert b"leav" not in client.get(path).content, path
