"""Per-decision logs on the site (issue 21, item 1): a real match of two users' uploaded bots
through the process sandbox; each seat's stderr and its marks are stored on the seat, never in
the public replay, and only the bot's owner (and staff) gets them back, from the replay download,
the API's replay and ``/matches/<pk>/logs.json``. Another user, the organiser of the match's
tournament and anonymous visitors get no logs at all."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from typing import Any

import pytest
from competitions.models import CompetitionMatch
from competitions.permissions import ORGANISERS_GROUP
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from matches.models import Match, MatchSeat, MatchStatus
from matches.seat_logs import checked_marks
from matches.services import create_match, dispatch_match
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

#: Each decision prints its owner's secret and the turn, in more than ASCII.
LOGGING_BOT = """import json, sys
TAG = %r
print(TAG + " starting", file=sys.stderr, flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print("%%s turn %%d: ünï ☃" %% (TAG, msg["turn"]), file=sys.stderr, flush=True)
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""
SECRETS = ("alice-secret-41", "bob-secret-97")
ROLES = ("anonymous", "alice", "bob", "carol", "dave")  # carol organises; dave is staff


@dataclass
class Played:
    match: Match
    users: dict[str, Any]


@pytest.fixture
def played(games, settings) -> Played:
    from bots.services import create_bot, upload_version

    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    make = get_user_model().objects.create_user
    users = {
        "alice": make("alice", password="pw-alice-123"),
        "bob": make("bob", password="pw-bob-123"),
        "carol": make("carol", password="pw-carol-123"),
        "dave": make("dave", password="pw-dave-123", is_staff=True),
    }
    users["carol"].groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    game = games["trishaw-frenzy"]
    versions = [
        upload_version(
            bot=create_bot(owner=users[name], game=game, name=f"{name}-logger"),
            filename="main.py",
            data=(LOGGING_BOT % secret).encode(),
        )
        for name, secret in zip(("alice", "bob"), SECRETS, strict=True)
    ]
    match = dispatch_match(
        create_match(game=game, versions=versions, seed=3, time_control={"move_ms": 2000})
    )
    assert match.status == MatchStatus.FINISHED, match.error
    cup = create_tournament(
        organiser=users["carol"], game=game, name="Cup", entrants=versions, players_per_match=2
    )
    CompetitionMatch.objects.create(match=match, tournament=cup)
    return Played(match, users)


def web(played: Played, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(played.users[role])
    return client


def api(played: Played, role: str) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        token, _ = Token.objects.get_or_create(user=played.users[role])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def readable(role: str) -> set[int]:
    return {"alice": {0}, "bob": {1}, "dave": {0, 1}}.get(role, set())


def test_marks_are_stored_per_seat_and_slice_each_decision(played):
    seats = list(played.match.seats.order_by("seat"))
    replay = played.match.replay
    assert "logs" not in replay and "log_marks" not in replay
    assert not any(secret in json.dumps(replay) for secret in SECRETS)
    for seat, secret in zip(seats, SECRETS, strict=True):
        turns = [d["turn"] for d in replay["decisions"] if d["seat"] == seat.seat]
        assert [m[0] for m in seat.stderr_marks] == turns  # every decision printed
        first, *rest = seat.stderr_marks
        assert seat.stderr[first[1] : first[2]] == (
            f"{secret} starting\n{secret} turn {first[0]}: ünï ☃\n"
        )
        for turn, start, end in rest:
            assert seat.stderr[start:end] == f"{secret} turn {turn}: ünï ☃\n"


# One match serves every role (playing it is most of a test's time).


def test_the_replay_download_carries_only_the_callers_logs(played):
    for role in ROLES:
        response = web(played, role).get(f"/matches/{played.match.pk}/replay.json")
        assert response.status_code == 200, role
        name = f"match-{played.match.pk}-replay.json"
        assert response["Content-Disposition"] == f'attachment; filename="{name}"'
        check_document(played, role, response)


def test_the_api_replay_carries_only_the_callers_logs(played):
    url = f"/api/matches/{played.match.pk}/replay/"
    for role in ROLES:
        client = api(played, role)
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, role
        if response.get("Content-Encoding") == "gzip":
            response.content = gzip.decompress(response.content)
        if readable(role):
            assert "ETag" not in response, role
            # a copy of the public document cached before must not stand in for this one
            etag = f'"{played.match.replay_document.sha256}"'
            again = client.get(url, HTTP_IF_NONE_MATCH=etag)
            assert again.status_code == 200 and json.loads(again.content)["logs"], role
        else:
            assert response["Cache-Control"].startswith("public") and "ETag" in response, role
        check_document(played, role, response)


def check_document(played: Played, role: str, response: Any) -> None:
    doc = json.loads(response.content)
    seats = {s.seat: s for s in played.match.seats.all()}
    mine = readable(role)
    shown = {s for s, secret in enumerate(SECRETS) if secret.encode() in response.content}
    assert shown == mine, role
    if not mine:
        assert "logs" not in doc and "log_marks" not in doc
        return
    assert response["Cache-Control"] == "private, no-store"
    assert doc["logs"] == [seats[i].stderr if i in mine else "" for i in range(2)]
    assert doc["log_marks"] == [seats[i].stderr_marks if i in mine else [] for i in range(2)]
    public = {k: v for k, v in doc.items() if k not in ("logs", "log_marks")}
    assert public == played.match.replay  # otherwise the public document, unchanged


def test_logs_json_holds_only_the_callers_seats(played):
    seats = {s.seat: s for s in played.match.seats.all()}
    for role in ROLES:
        response = web(played, role).get(f"/matches/{played.match.pk}/logs.json")
        assert response.status_code == 200, role
        assert response["Cache-Control"] == "private, no-store", role
        assert response.json() == {
            "seats": {
                str(i): {"text": seats[i].stderr, "marks": seats[i].stderr_marks}
                for i in sorted(readable(role))
            }
        }, role


def test_logs_json_errors(played, client):
    assert client.get("/matches/999999/logs.json").status_code == 404
    assert client.get("/matches/999999/logs.json").json() == {"error": "No match 999999"}
    assert client.post(f"/matches/{played.match.pk}/logs.json").status_code == 405


def test_requeue_forgets_the_logs(played):
    from matches.services import requeue_locked

    Match.objects.filter(pk=played.match.pk).update(status=MatchStatus.ERROR)
    requeue_locked(Match.objects.get(pk=played.match.pk))
    rows = MatchSeat.objects.filter(match=played.match).values_list("stderr", "stderr_marks")
    assert list(rows) == [("", []), ("", [])]


def test_malformed_marks_from_a_worker_are_dropped():
    logs = ["abcdef", "xyz"]
    raw = [
        [[0, 0, 2], [1, 1, 3], [2, 2, 2], [3, 2, 4], [4, 4, 99], ["5", 4, 5], [6, 4, 6]],
        "nonsense",
    ]
    assert checked_marks(raw, logs) == [[[0, 0, 2], [3, 2, 4], [6, 4, 6]], []]
    assert checked_marks(None, logs) == [[], []]
    assert checked_marks([[[True, 0, 1]], [[0, -1, 2], [0, 0, 3]]], logs) == [[], [[0, 0, 3]]]
