"""The human seat's page around the table and at the end of a game: seats counted from 0 with
the person's own marked "(you)", a person named by their username wherever a match's seats are
listed, and a finished game that shows its end (the last position's pictures) to any tab of
the player while nothing can be played for it any more (never "Another tab holds this seat"
once the hold lapsed after the end)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from matches.models import Match, MatchStatus
from play import channel as ch

from tests.platform.test_play import (  # the worker thread and the shared play cache
    _builtin,
    _client,
    _play_to_the_end,
    _shared_play_cache,
    worker,
)

__all__ = ["_shared_play_cache", "worker"]


def _start(c: Client, game: str, seats: list[str], **options: Any) -> int:
    data = {"game": game, **{f"seat_{i}": s for i, s in enumerate(seats)}}
    if options:
        data["options_form"] = "1"
        data.update({f"option_{k}": str(v) for k, v in options.items()})
    r = c.post("/play/new/", data)
    assert r.status_code == 302, r.content
    return int(r["Location"].strip("/").split("/")[1])


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_shows_its_end_and_takes_no_more_actions(
    games: Any, user: Any, worker: list[threading.Thread]
) -> None:
    c = _client(user)
    bots = [_builtin("trnd", "random"), _builtin("trnd", "greedy")]
    match_id = _start(c, "trnd", ["you", *bots], max_rounds=1)
    end = _play_to_the_end(c, match_id, 0, lambda req: 0, worker)
    for t in worker:
        t.join(60)
    assert Match.objects.get(pk=match_id).status == MatchStatus.FINISHED
    # the end, drawn for the seat from the last position (not the last decision's picture)
    result = end["result"]
    assert result["status"] == "ok" and result["rank"] in (1, 2, 3) and result["why"] is None
    assert result["svg"].lstrip().startswith("<svg") and "Seat 0 (you)" in result["svg"]
    assert "(you)" in result["text"] and end["request"] is None

    # the hold lapses once nobody polls (here: at once); nothing says "another tab"
    ch.play_cache().delete(ch.key(match_id, 0, "tab"))
    act = c.post(
        f"/play/{match_id}/0/act",
        {"tab": "old", "turn": 3, "index": 0},
        content_type="application/json",
    )
    assert act.status_code == 409 and act.json()["detail"].startswith("The game is over")
    resign = c.post(f"/play/{match_id}/0/resign", {"tab": "old"}, content_type="application/json")
    assert resign.status_code == 409 and resign.json()["detail"].startswith("The game is over")
    # any tab of the player (a reload, a second one) shows the same end
    for token in ("", "old"):
        claim = c.post(f"/play/{match_id}/0/claim", {"tab": token}, content_type="application/json")
        assert claim.status_code == 200
        again = c.get(f"/play/{match_id}/0/state.json", {"tab": claim.json()["tab"]}).json()
        assert again["result"] == result and again["request"] is None


@pytest.mark.django_db(transaction=True)
def test_a_resigned_game_says_the_person_resigned_not_timeout(
    games: Any, user: Any, worker: list[threading.Thread]
) -> None:
    c = _client(user)
    match_id = _start(c, "tri-area", ["you", _builtin("tri-area", "builder")])
    tab = c.post(f"/play/{match_id}/0/claim", {}, content_type="application/json").json()["tab"]
    deadline = time.monotonic() + 120  # a bound, not a speed goal
    while not c.get(f"/play/{match_id}/0/state.json", {"tab": tab}).json()["request"]:
        assert time.monotonic() < deadline, "no decision asked"
        time.sleep(0.05)
    assert (
        c.post(
            f"/play/{match_id}/0/resign", {"tab": tab}, content_type="application/json"
        ).status_code
        == 200
    )
    for t in worker:
        t.join(60)
    result = c.get(f"/play/{match_id}/0/state.json", {"tab": tab}).json()["result"]
    # the seat is recorded as a forfeit (kind "timeout"); the page is told why in words
    assert result["status"] == "timeout" and result["why"] == "you resigned"


@pytest.mark.django_db
def test_seats_count_from_0_and_the_person_is_named_and_marked(
    games: Any, user: Any, other_user: Any
) -> None:
    c = _client(user)
    greedy, random = _builtin("trnd", "greedy"), _builtin("trnd", "random")
    new = c.get("/play/new/?game=trnd").content.decode()
    assert 'aria-label="Seat 0"' in new and 'aria-label="Seat 1"' in new
    # not dispatched: on_commit never runs inside this test's transaction
    match_id = _start(c, "trnd", [greedy, "you", random])

    page = c.get(f"/play/{match_id}/1/").content.decode()
    assert f"match {match_id} · Seat 1 (you)" in page
    assert "Seat 0: greedy" in page and "Seat 2: random" in page
    assert "Seat 1: alice (you)" in page

    # the match page and the match list name the person, never the stand-in "human v1"
    detail = c.get(f"/matches/{match_id}/").content.decode()
    assert ">alice</span>" in detail and "(you)" in detail and ">human</a>" not in detail
    anonymous = Client().get(f"/matches/{match_id}/").content.decode()
    assert ">alice</span>" in anonymous and "(a person)" in anonymous and "(you)" not in anonymous
    listed = c.get("/matches/").content.decode()
    assert ">alice</span>" in listed and ">human</a>" not in listed
    mine = c.get("/play/").content.decode()
    assert "<td>1</td>" in mine


@pytest.mark.django_db
def test_naming_people_costs_no_query(games: Any, user: Any) -> None:
    c = _client(user)
    greedy, random = _builtin("trnd", "greedy"), _builtin("trnd", "random")

    def count(url: str) -> int:
        assert c.get(url).status_code == 200  # warm, as a server's caches would be
        with CaptureQueriesContext(connection) as ctx:
            assert c.get(url).status_code == 200
        return len(ctx.captured_queries)

    first = _start(c, "trnd", ["you", greedy, random])
    Match.objects.filter(pk=first).update(status=MatchStatus.FINISHED)  # under the open limit
    one = (count("/matches/"), count(f"/matches/{first}/"))
    second = _start(c, "trnd", [greedy, "you", random])
    assert (count("/matches/"), count(f"/matches/{second}/")) == one
