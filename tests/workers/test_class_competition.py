"""A class competition on the production path: PostgreSQL, Redis, a real Celery worker and a
real Celery beat. A teacher creates a private Swiss competition through the API (an entry
window, a chosen time control), invites six pupils by link; each signs up, uploads a bot (the
worker qualifies it) and enters it. The window closes and beat starts the competition by
itself; the worker plays every round. Then the table and its CSV are checked against a
recomputation from the matches' seats, an outsider finds nothing of it, and the pupils have
been told (in-site notifications and emails, sent by the worker)."""

from __future__ import annotations

import csv
import io
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone

from tests.conftest import WorkerProcess, beat_process, celery_on
from tests.notifications.outbox import sent
from tests.workers.test_ladder_worker import (
    LADDER_ENV,
    _database_url,
    signed_up,
    upload,
    wait_for,
)

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

GAME = "manhattan-traffiq"
TIME_CONTROL = {"start_ms": 4000, "move_ms": 700, "bank_ms": 6000}


def pupil_bot(k: int) -> bytes:
    """A legal bot whose choices differ from pupil to pupil (so the table is not all draws)."""
    return b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        n = len(msg["legal_actions"])
        print(json.dumps({"action_index": (msg["turn"] * %d) %% n, "turn": msg["turn"]}),
              flush=True)
    else:
        break
""" % (k + 1)


def qualified(api: Client, bot_id: int) -> bool:
    return bool(api.get(f"/api/bots/{bot_id}/versions/").json()[0]["status"] == "active")


@pytest.fixture
def outbox(tmp_path: Path) -> Path:
    return tmp_path / "outbox"


@pytest.fixture
def site(settings: Any, tmp_path: Path, outbox: Path) -> dict[str, str]:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.CELERY_TASK_ALWAYS_EAGER = False
    return {
        "DATABASE_URL": _database_url(),
        "ARENA_DATA_DIR": str(tmp_path),
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(outbox),
        **{k: v for k, v in LADDER_ENV.items() if k.startswith("ARENA_") and "SANDBOX" in k},
    }


@pytest.fixture
def worker(request: pytest.FixtureRequest, site: dict[str, str]) -> WorkerProcess:
    request.node.worker_env = site
    return request.getfixturevalue("celery_worker_process")


@pytest.fixture
def beat(redis_url: str, site: dict[str, str]) -> Iterator[subprocess.Popen]:
    """Beat with the database scheduler, the calendar ticking every second instead of every
    minute and every other periodic task off (this test is about the competition)."""
    from catalog.services import sync_games
    from competitions.calendar import CALENDAR_ENTRY
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    sync_games()
    second, _ = IntervalSchedule.objects.get_or_create(every=1, period="seconds")
    # The entry competitions' migration makes (gone if a transactional test emptied the
    # tables before this one), at a second.
    PeriodicTask.objects.update_or_create(
        name=CALENDAR_ENTRY,
        defaults={"task": "competitions.calendar_tick", "interval": second, "enabled": True},
    )
    PeriodicTask.objects.exclude(name=CALENDAR_ENTRY).update(enabled=False)
    with beat_process(redis_url, site) as proc:
        yield proc


def test_a_class_competition_from_invitation_to_published_table(
    redis_url: str, worker: WorkerProcess, beat: subprocess.Popen, outbox: Path
) -> None:
    from competitions.models import Tournament, TournamentStatus
    from matches.models import MatchStatus
    from notifications.models import Notification, NotificationKind

    from tests.competitions.test_results_crosstable import recompute

    teacher = User.objects.create_user("teacher", "teacher@school.example", "pw-teacher-Zx81!")
    teacher.groups.add(Group.objects.get_or_create(name="organisers")[0])
    staff = Client()
    staff.force_login(teacher)
    now = timezone.now()
    with celery_on(redis_url):
        made = staff.post(
            "/api/tournaments/",
            {
                "game": GAME,
                "name": "Class 4B cup",
                "format": "swiss",
                "rounds": 3,
                "players_per_match": 2,
                "visibility": "private",
                "entry_policy": "members",
                "entries_close_at": (now + timedelta(hours=1)).isoformat(),
                "time_control": TIME_CONTROL,
            },
            content_type="application/json",
        )
        assert made.status_code == 201, made.content
        t = Tournament.objects.get(pk=made.json()["id"])
        assert t.start_at == t.entries_close_at  # it starts by itself when the window closes
        link = staff.get(f"/api/tournaments/{t.pk}/invite/").json()

        pupils: list[tuple[User, Client, int]] = []
        for k in range(6):
            api = signed_up(Client(), f"pupil{k}")
            user = User.objects.get(username=f"pupil{k}")
            user.email = f"pupil{k}@school.example"
            user.save(update_fields=["email"])
            # Before joining, the competition does not exist for them.
            assert api.get(f"/api/tournaments/{t.pk}/").status_code == 404
            joined = api.post("/api/tournaments/join/", {"token": link["code"]}, "application/json")
            assert joined.status_code == 200, joined.content
            bot = api.post("/api/bots/", {"game": GAME, "name": f"pupil{k}-bot"}).json()
            version = upload(api, bot["id"], pupil_bot(k))
            pupils.append((user, api, version["id"]))
            wait_for(f"pupil{k}'s bot to qualify", partial(qualified, api, bot["id"]), worker, 240)
            entered = api.post(
                f"/api/tournaments/{t.pk}/entries/", {"version": version["id"]}, "application/json"
            )
            assert entered.status_code in (200, 201), entered.content
        assert t.entrants.count() == 6

        # The clock moves on: the window closes (what an hour would do, in a second).
        closed = timezone.now() + timedelta(seconds=1)
        Tournament.objects.filter(pk=t.pk).update(entries_close_at=closed, start_at=closed)
        wait_for("the window to close", lambda: timezone.now() > closed, worker, limit=10)
        # Too late to withdraw (the window is shut, or the competition has begun).
        late = pupils[0][1].delete(
            f"/api/tournaments/{t.pk}/entries/", {"version": pupils[0][2]}, "application/json"
        )
        wait_for(
            "beat to start the competition and the worker to play it",
            lambda: Tournament.objects.get(pk=t.pk).status == TournamentStatus.FINISHED,
            worker,
            limit=600,
        )
    assert late.status_code == 400, late.content
    assert t.entrants.count() == 6
    t.refresh_from_db()
    assert t.matches.count() == 9 and not t.matches.exclude(status=MatchStatus.FINISHED).exists()
    # The chosen time control, on every match; private, and not rated on the public ladder.
    for m in t.matches.all():
        assert m.time_control == TIME_CONTROL and m.audience_id == t.audience_id and not m.rated

    # The published table: CSV and JSON against the seats of the matches.
    member = Client()  # the pages use the session, the API the token
    member.force_login(pupils[0][0])
    points, _, _ = recompute(t)
    rows = list(
        csv.DictReader(
            io.StringIO(member.get(f"/tournaments/{t.pk}/standings.csv").content.decode())
        )
    )
    assert {r["bot_version"] for r in rows} == set(points)
    for r in rows:
        assert float(r["points"]) == pytest.approx(points[r["bot_version"]], abs=1e-5)
    order = [(-float(r["points"]), -float(r["buchholz"])) for r in rows]
    assert order == sorted(order)
    assert sum(points.values()) == pytest.approx(9)  # one point a two-seat match
    page = member.get(f"/tournaments/{t.pk}/")
    assert page.status_code == 200 and b"Class 4B cup" in page.content

    # An outsider (signed in, with a bot of the same game) finds nothing of it anywhere.
    outsider = signed_up(Client(), "outsider")
    browser = Client()
    browser.force_login(User.objects.get(username="outsider"))
    for client in (outsider, browser, Client()):
        for url in (
            f"/tournaments/{t.pk}/",
            f"/tournaments/{t.pk}/standings.csv",
            f"/tournaments/{t.pk}/embed/",
            f"/api/tournaments/{t.pk}/",
            *(f"/matches/{m.pk}/" for m in t.matches.all()),
            *(f"/api/matches/{m.pk}/" for m in t.matches.all()),
        ):
            assert client.get(url).status_code == 404, url
        for url in ("/tournaments/", "/api/tournaments/", "/matches/", "/api/matches/", "/"):
            assert b"Class 4B cup" not in client.get(url).content, url
        listed = client.get("/api/matches/").json()
        assert not {m["id"] for m in listed["results"]} & set(
            t.matches.values_list("pk", flat=True)
        )

    # Told: each pupil that it started and ended, in the site and by email (sent by the worker).
    for user, _, _ in pupils:
        kinds = set(Notification.objects.filter(user=user).values_list("kind", flat=True))
        assert {NotificationKind.COMPETITION_STARTED, NotificationKind.COMPETITION_ENDED} <= kinds
    # Django's file backend writes a file per connection, named by the time and the
    # backend's id(), which a later backend may reuse: count messages, not files.
    emails = wait_for("the emails", partial(sent, outbox, 12), worker, limit=120)
    for user, _, _ in pupils:
        mine = [e for e in emails if f"To: {user.email}" in e]
        assert any("Class 4B cup" in e and "started" in e.lower() for e in mine), mine
        assert any(
            "Class 4B cup" in e and ("ended" in e.lower() or "finished" in e.lower()) for e in mine
        )
    assert not any("outsider" in e for e in emails)
