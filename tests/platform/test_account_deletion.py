"""Deleting an account (docs/permissions.md, "Deleting an account"): from the settings page with
the password, and from the admin. Matches, replays and ratings stay, shown as played by
"deleted user"; the user's code files and private logs are gone; nobody else's data moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from accounts.deletion import DELETED_USERNAME, REMOVED_REASON
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import system_user
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.files.base import ContentFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from ladder.models import LadderEntry
from matches.models import MatchSeat
from ratings.models import Rating
from rest_framework.authtoken.models import Token

from tests.scale.conftest import GAME, History

User = get_user_model()
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _media(celery_inline: None, settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def site(db: None) -> History:
    """Twelve bots of four authors with a played history; every version has stored code and
    a build, every seat a private log."""
    history = History({g.slug: g for g in sync_games()}[GAME])
    history.add_bots(12)
    history.play(40)
    for v in BotVersion.objects.filter(bot__in=[h.bot_id for h in history.versions]):
        v.code.save("main.py", ContentFile(f"# {v.pk}\n".encode()), save=False)
        v.artifact_sha256 = f"{v.pk:064x}"
        v.artifact.save("built.zip", ContentFile(b"PK"), save=False)
        v.failure_stderr = "secret trace"
        v.save()
    MatchSeat.objects.update(stderr="private log", stderr_marks=[[0, 0, 11]])
    for user in history.users:
        user.set_password(PASSWORD)
        user.save()
    return history


def _files_of(user: Any) -> list[Path]:
    paths = []
    for v in BotVersion.objects.filter(bot__owner=user):
        paths += [Path(v.code.path), Path(v.artifact.path)]
    assert paths and all(p.exists() for p in paths)
    return paths


def _logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_deleting_from_the_settings_page_keeps_history_and_removes_private_data(
    site: History, django_capture_on_commit_callbacks: Any
) -> None:
    victim, other = site.users[0], site.users[1]
    bot_ids = list(Bot.objects.filter(owner=victim).values_list("pk", flat=True))
    files, others_files = _files_of(victim), _files_of(other)
    ratings = sorted(Rating.objects.values_list("bot_id", "elo", "mu", "sigma", "matches_played"))
    others_seats = sorted(
        MatchSeat.objects.exclude(bot_version__bot__owner=victim).values_list(
            "pk", "stderr", "score"
        )
    )
    match_id = MatchSeat.objects.filter(bot_version__bot_id=bot_ids[0]).values("match_id")[0]
    Token.objects.create(user=victim)
    board = f"/games/{site.game.slug}/"
    old_name = Bot.objects.get(pk=bot_ids[0]).name
    assert old_name in Client().get(board).content.decode()  # the board's parts now cached
    client, elsewhere = _logged_in(victim), _logged_in(victim)
    assert "Delete your account" in client.get("/accounts/settings/").content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        wrong = client.post("/accounts/settings/delete/", {"password": "nope"})
    assert wrong.status_code == 400 and "not your password" in wrong.content.decode()
    assert User.objects.filter(pk=victim.pk).exists()

    with django_capture_on_commit_callbacks(execute=True):
        done = client.post("/accounts/settings/delete/", {"password": PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/"

    assert not User.objects.filter(pk=victim.pk).exists()
    assert not Token.objects.filter(user_id=victim.pk).exists()
    assert not any(
        str(s.get_decoded().get("_auth_user_id")) == str(victim.pk) for s in Session.objects.all()
    )
    assert elsewhere.get("/bots/mine/").status_code == 302  # the other session is logged out
    assert not any(p.exists() for p in files)
    assert not Path(files[0]).parent.exists()
    assert all(p.exists() for p in others_files)

    kept = Bot.objects.filter(pk__in=bot_ids).select_related("owner")
    assert {b.owner.username for b in kept} == {DELETED_USERNAME}
    assert sorted(b.name for b in kept) == sorted(f"bot-{pk}" for pk in bot_ids)
    versions = BotVersion.objects.filter(bot_id__in=bot_ids)
    assert {(v.code.name, v.artifact.name, v.failure_stderr) for v in versions} == {("", "", "")}
    assert {(v.status, v.status_reason) for v in versions} == {
        (VersionStatus.FAILED, REMOVED_REASON)
    }
    assert not LadderEntry.objects.filter(bot_id__in=bot_ids).exists()
    seats = MatchSeat.objects.filter(bot_version__bot_id__in=bot_ids)
    assert seats.exists()
    assert all(
        log == "" and marks == [] for log, marks in seats.values_list("stderr", "stderr_marks")
    )
    assert (
        sorted(
            MatchSeat.objects.exclude(bot_version__bot_id__in=bot_ids).values_list(
                "pk", "stderr", "score"
            )
        )
        == others_seats
    )
    assert (
        sorted(Rating.objects.values_list("bot_id", "elo", "mu", "sigma", "matches_played"))
        == ratings
    )

    anyone = Client()
    leaderboard = anyone.get(board).content.decode()
    assert f"bot-{bot_ids[0]}" in leaderboard and DELETED_USERNAME in leaderboard
    assert f">{old_name}<" not in leaderboard
    page = anyone.get(f"/matches/{match_id['match_id']}/")
    assert page.status_code == 200 and f"bot-{bot_ids[0]}" in page.content.decode()
    bot_page = anyone.get(f"/bots/{bot_ids[0]}/").content.decode()
    assert f"by {DELETED_USERNAME}" in bot_page and "private log" not in bot_page
    assert anyone.get(f"/matches/{match_id['match_id']}/replay.json").status_code == 200


def test_the_name_of_a_deleted_account_is_free_again(site: History) -> None:
    victim = site.users[0]
    name = victim.username
    _logged_in(victim).post("/accounts/settings/delete/", {"password": PASSWORD})
    signup = Client().post(
        "/accounts/signup/",
        {"username": name, "password1": "a fresh Pa55word!", "password2": "a fresh Pa55word!"},
    )
    assert signup.status_code == 302
    newcomer = User.objects.get(username=name)
    assert newcomer.pk != victim.pk and not Bot.objects.filter(owner=newcomer).exists()


def test_nobody_deletes_another_account_but_staff(site: History) -> None:
    victim, other = site.users[0], site.users[1]
    # The page deletes only the signed-in account: another's password deletes nothing.
    response = _logged_in(other).post("/accounts/settings/delete/", {"password": "x"})
    assert response.status_code == 400
    assert User.objects.filter(pk__in=[victim.pk, other.pk]).count() == 2
    anonymous = Client().post("/accounts/settings/delete/", {"password": PASSWORD})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert _logged_in(other).get("/accounts/settings/delete/").status_code == 405
    # The admin's deletion is staff's only.
    url = f"/admin/auth/user/{victim.pk}/delete/"
    assert _logged_in(other).post(url, {"post": "yes"}).status_code == 302
    assert User.objects.filter(pk=victim.pk).exists()
    # The site's own accounts stay, whoever asks.
    staff = User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    arena = system_user()
    page = _logged_in(staff).get(f"/admin/auth/user/{arena.pk}/delete/")
    assert "belongs to the site" in page.content.decode()
    _logged_in(staff).post(f"/admin/auth/user/{arena.pk}/delete/", {"post": "yes"})
    assert User.objects.filter(pk=arena.pk).exists()


def test_staff_delete_in_the_admin_with_a_page_of_constant_cost(
    site: History, django_capture_on_commit_callbacks: Any
) -> None:
    staff = _logged_in(User.objects.create_superuser("boss", "boss@example.com", PASSWORD))
    few = User.objects.create_user("newcomer", password=PASSWORD)
    many = site.users[0]

    def confirmation(user: Any) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as ctx:
            page = staff.get(f"/admin/auth/user/{user.pk}/delete/")
        assert page.status_code == 200
        return len(ctx.captured_queries), page.content.decode()

    staff.get(f"/admin/auth/user/{few.pk}/delete/")  # warm
    n_few, _ = confirmation(few)
    n_many, text = confirmation(many)
    assert n_few == n_many
    bots = Bot.objects.filter(owner=many).count()
    assert f"{bots} bots kept" in text and "Are you sure" in text

    files = _files_of(many)
    with django_capture_on_commit_callbacks(execute=True):
        done = staff.post(f"/admin/auth/user/{many.pk}/delete/", {"post": "yes"})
    assert done.status_code == 302
    assert not User.objects.filter(pk=many.pk).exists()
    assert Bot.objects.filter(owner__username=DELETED_USERNAME).count() == bots
    assert not any(p.exists() for p in files)


def test_admin_delete_confirmations_count_instead_of_listing(site: History) -> None:
    """Any model's confirmation (foundation.admin_pages): what protects the object, or what
    goes with it, as counts; a protected object is not deleted."""
    staff = _logged_in(User.objects.create_superuser("boss", "boss@example.com", PASSWORD))
    played = site.versions[0].bot
    seats = MatchSeat.objects.filter(bot_version__bot=played).count()
    page = staff.get(f"/admin/bots/bot/{played.pk}/delete/").content.decode()
    assert f"{seats} match seats (matches.MatchSeat) point at it" in page
    staff.post(f"/admin/bots/bot/{played.pk}/delete/", {"post": "yes"})
    assert Bot.objects.filter(pk=played.pk).exists()

    idle = Bot.objects.create(owner=site.users[1], game=site.game, name="idle")
    for n in (1, 2, 3):
        idle.versions.create(number=n, builtin_name="random")
    page = staff.get(f"/admin/bots/bot/{idle.pk}/delete/").content.decode()
    assert "3 bot versions" in page and "point at it" not in page
    assert staff.post(f"/admin/bots/bot/{idle.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Bot.objects.filter(pk=idle.pk).exists()
