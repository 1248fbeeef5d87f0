""" "Start" and "Play a round now" do no scheduling in the request: they leave one task to
send when the request's transaction commits, and the page answers at once; the worker that
runs the task schedules (and here, eagerly, plays) the matches."""

from __future__ import annotations

from typing import Any

from competitions.leagues.services import create_league
from competitions.models import League, Tournament, TournamentStatus
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from matches.models import Match, MatchStatus

from tests.scale.conftest import History


def _staff(client: Any) -> Any:
    user = get_user_model().objects.create(username="org", is_staff=True)
    client.force_login(user)
    return user


def test_start_enqueues_and_returns_at_once(
    history: History, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    history.add_bots(4)
    t = create_tournament(
        organiser=_staff(client), game=history.game, name="cup", entrants=history.versions,
        players_per_match=2,
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=False) as sent:
        r = client.post(f"/tournaments/{t.pk}/start/")
    assert r.status_code == 302 and len(sent) == 1
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT and not Match.objects.exists()  # nothing yet
    page = client.get(r["Location"]).content.decode()
    assert "a worker schedules its matches" in page

    with django_capture_on_commit_callbacks(execute=True):
        sent[0]()  # what the broker delivers: the worker's task
    t.refresh_from_db()
    assert t.matches.count() == 6 and t.status == TournamentStatus.FINISHED
    assert set(t.matches.values_list("status", flat=True)) == {MatchStatus.FINISHED}
    # A second "start" of the same tournament is refused in the request, with the reason.
    again = client.post(f"/tournaments/{t.pk}/start/")
    assert again.status_code == 400 and "already been started" in again.content.decode()


def test_play_a_round_now_enqueues_one_round(
    history: History, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    history.add_bots(6)
    _staff(client)
    lg = create_league(game=history.game, name="weekly", players_per_match=2)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        r = client.post(f"/tournaments/leagues/{lg.pk}/play/")
        client.post(f"/tournaments/leagues/{lg.pk}/play/")  # a double click
    assert r.status_code == 302 and len(sent) == 2 and not Match.objects.exists()
    lg.refresh_from_db()
    assert lg.rounds_played == 0
    with django_capture_on_commit_callbacks(execute=True):
        for task in sent:
            task()
    lg = League.objects.get(pk=lg.pk)
    assert lg.rounds_played == 1  # both asked for round 1: it was played once
    assert lg.matches.count() == 3
    assert not Tournament.objects.exists()
