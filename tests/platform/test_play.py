"""People's matches (platform/play): started from the pages, played by a worker through the
normal match path while the person answers through the play page's JSON endpoints, with the
human channel in a cache that processes share. The worker here is a thread running the real
task (the browser test, tests/browser/test_browser_play.py, uses a real worker process)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from matches.models import Match, MatchKind, MatchStatus
from play import channel as ch
from play import services
from play.models import PlaySeat

from arena.replay import verify_replay
from tests.conftest import REPO, platform_env

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _shared_play_cache(settings: Any, tmp_path: Any) -> Iterator[None]:
    # the fallback file cache, in a folder of this test's own
    settings.DATA_DIR = tmp_path
    ch._file_cache.cache_clear()
    yield
    ch._file_cache.cache_clear()


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    """Dispatch in a thread (as a worker would), not inline inside the web request. The thread
    and the test's requests write at once: that needs a real database server (the test
    database of SQLite is one in-memory file whose tables lock whole)."""
    from matches import services as match_services

    from tests.conftest import missing_service

    if connection.vendor != "postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")

    threads: list[threading.Thread] = []

    def run(match: Match) -> None:
        try:
            match_services.dispatch_match(match)
        finally:
            connection.close()

    def dispatch(match: Match) -> Match:
        t = threading.Thread(target=run, args=(match,), daemon=True)
        threads.append(t)
        t.start()
        return match

    monkeypatch.setattr(services, "dispatch_match", dispatch)
    return threads


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _start(c: Client, game: str, seats: list[str]) -> tuple[int, int]:
    data = {"game": game, **{f"seat_{i}": s for i, s in enumerate(seats)}}
    r = c.post("/play/new/", data)
    assert r.status_code == 302, r.content
    parts = r["Location"].strip("/").split("/")
    return int(parts[1]), int(parts[2])


def _builtin(game: str, name: str) -> str:
    from bots.services import ensure_builtin_bot
    from catalog.models import Game

    bot = ensure_builtin_bot(game=Game.objects.get(slug=game), builtin_name=name)
    version = bot.latest_version()
    assert version is not None
    return str(version.pk)


def _stuck(
    match_id: int, seat: int, decisions: int, refusal: str, threads: list[threading.Thread]
) -> str:
    """What to say when a game does not end: how far it got, the match row, the pending
    request and its answer in the play cache, the last refusal, where each worker thread is."""
    import traceback

    c = ch.play_cache()
    req = c.get(ch.key(match_id, seat, "req"))
    turn = req["turn"] if req else None
    match = Match.objects.filter(pk=match_id).values("status", "error", "attempts").first()
    answer = c.get(ch.key(match_id, seat, f"ans:{turn}"))
    lines = [
        f"{decisions} decisions answered; match {match}, pending turn {turn}, answer {answer!r}",
        f"cache {type(c).__name__}, last refusal: {refusal}",
    ]
    frames = sys._current_frames()
    for t in threads:
        stack = frames.get(t.ident or -1)
        where = "".join(traceback.format_stack(stack)[-6:]) if stack else "(ended)\n"
        lines.append(f"{t.name}:\n{where}")
    return "\n".join(lines)


def _play_to_the_end(
    c: Client, match_id: int, seat: int, pick: Any, threads: list[threading.Thread]
) -> dict[str, Any]:
    tab = c.post(f"/play/{match_id}/{seat}/claim", {}, content_type="application/json").json()[
        "tab"
    ]
    decisions = 0
    refusal = ""
    # A bound on a whole game, not a speed goal: generous for a loaded CI machine.
    deadline = time.monotonic() + 480
    while time.monotonic() < deadline:
        state = c.get(f"/play/{match_id}/{seat}/state.json", {"tab": tab}).json()
        if state["result"]:
            state["decisions"] = decisions
            return state
        req = state["request"]
        if req:
            r = c.post(
                f"/play/{match_id}/{seat}/act",
                {"tab": tab, "turn": req["turn"], "index": pick(req)},
                content_type="application/json",
            )
            if r.status_code == 200:
                decisions += 1
            else:  # the worker took the answer and cleared it between our poll and post
                assert r.status_code == 409, r.content
                refusal = r.json()["detail"]
                time.sleep(0.05)
        else:
            time.sleep(0.05)
    stuck = _stuck(match_id, seat, decisions, refusal, threads)
    raise AssertionError(f"the match did not end: {stuck}")


def test_a_person_plays_a_whole_solo_trishaw_frenzy_match(
    games: Any, user: Any, worker: list[threading.Thread]
) -> None:
    c = _client(user)
    assert c.get("/play/new/?game=trishaw-frenzy").status_code == 200
    match_id, seat = _start(c, "trishaw-frenzy", ["you"])
    end = _play_to_the_end(c, match_id, seat, lambda req: len(req["labels"]) - 1, worker)
    for t in worker:
        t.join(30)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED, match.error
    assert match.kind == MatchKind.HUMAN and match.rated is False
    assert end["result"]["status"] == "ok" and end["decisions"] > 10
    assert not match.rating_changes.exists()
    assert verify_replay(match.replay) == []
    assert match.replay["seats"][0]["human"] is True
    mine = [d for d in match.replay["decisions"] if d["seat"] == 0]
    assert len(mine) == end["decisions"]
    # the player's list shows it, with its replay
    page = c.get("/play/").content.decode()
    assert f"/matches/{match_id}/" in page and "replay" in page


def test_trnd_with_two_builtins_and_the_request_the_page_shows(
    games: Any, user: Any, worker: list[threading.Thread]
) -> None:
    c = _client(user)
    match_id, seat = _start(
        c, "trnd", [_builtin("trnd", "greedy"), "you", _builtin("trnd", "random")]
    )
    assert seat == 1
    tab = c.post(f"/play/{match_id}/1/claim", {}, content_type="application/json").json()["tab"]
    for _ in range(400):
        req = c.get(f"/play/{match_id}/1/state.json", {"tab": tab}).json()["request"]
        if req:
            break
        time.sleep(0.05)
    assert req is not None
    assert req["svg"].lstrip().startswith("<svg") and "TRND" in req["text"]
    assert req["observation"]["seat"] == 1 and req["labels"][0] == "draw"
    assert 0 < req["seconds_left"] <= 300
    services.resign(user, match_id, 1, tab)
    for t in worker:
        t.join(60)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    row = match.seats.get(seat=1)
    assert row.status == "timeout" and row.rank == 3 and "resigned" in row.faults[0]["detail"]
    # three different bots finished: a bot match like it would be rated; this one is not
    assert match.rated is False and not match.rating_changes.exists()


def test_second_tab_and_other_users_are_refused(
    games: Any, user: Any, other_user: Any, worker: list[threading.Thread], settings: Any
) -> None:
    settings.ARENA_HUMAN_LEAVE_S = 5
    c = _client(user)
    match_id, _ = _start(c, "tri-area", ["you", _builtin("tri-area", "builder")])
    first = c.post(f"/play/{match_id}/0/claim", {}, content_type="application/json")
    tab = first.json()["tab"]
    # a reload of the same tab keeps it
    again = c.post(f"/play/{match_id}/0/claim", {"tab": tab}, content_type="application/json")
    assert again.json()["tab"] == tab
    # a second tab (no token, or another one) may not take it, nor act, nor poll
    second = c.post(f"/play/{match_id}/0/claim", {}, content_type="application/json")
    assert second.status_code == 409 and "another tab" in second.json()["detail"]
    r = c.post(
        f"/play/{match_id}/0/act",
        {"tab": "forged", "turn": 0, "index": 0},
        content_type="application/json",
    )
    assert r.status_code == 409
    assert c.get(f"/play/{match_id}/0/state.json", {"tab": "forged"}).status_code == 409
    # another user gets 403 everywhere, also with the right token
    o = _client(other_user)
    assert o.get(f"/play/{match_id}/0/").status_code == 403
    assert (
        o.post(f"/play/{match_id}/0/claim", {}, content_type="application/json").status_code == 403
    )
    r = o.post(
        f"/play/{match_id}/0/act",
        {"tab": tab, "turn": 0, "index": 0},
        content_type="application/json",
    )
    assert r.status_code == 403 and r.json()["detail"] == "This seat is another player's."
    assert Client().get(f"/play/{match_id}/0/state.json").status_code == 401
    services.resign(user, match_id, 0, tab)
    for t in worker:
        t.join(60)


def test_leaving_the_page_forfeits_after_the_leave_timeout(
    games: Any, user: Any, worker: list[threading.Thread], settings: Any
) -> None:
    settings.ARENA_HUMAN_LEAVE_S = 1
    c = _client(user)
    match_id, _ = _start(c, "tri-area", ["you", _builtin("tri-area", "random")])
    for t in worker:  # nobody opens the page
        t.join(60)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    row = match.seats.get(seat=0)
    assert row.status == "timeout" and "left the page" in row.faults[0]["detail"]
    assert verify_replay(match.replay) == []


def test_the_clock_runs_out_while_the_page_stays_open(
    games: Any, user: Any, worker: list[threading.Thread], settings: Any
) -> None:
    settings.ARENA_HUMAN_MOVE_S = 1
    c = _client(user)
    match_id, _ = _start(c, "tri-area", ["you", _builtin("tri-area", "random")])
    tab = c.post(f"/play/{match_id}/0/claim", {}, content_type="application/json").json()["tab"]
    while worker[0].is_alive():  # poll (the heartbeat) but never answer
        assert c.get(f"/play/{match_id}/0/state.json", {"tab": tab}).status_code == 200
        time.sleep(0.1)
    row = Match.objects.get(pk=match_id).seats.get(seat=0)
    assert row.status == "timeout" and "1000 ms" in row.faults[0]["detail"]


def test_per_user_limits_hold_in_the_database(
    games: Any, user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(services, "dispatch_match", lambda m: sent.append(m.pk))
    settings.ARENA_HUMAN_OPEN_LIMIT = 1
    settings.ARENA_HUMAN_DAILY_LIMIT = 2
    c = _client(user)
    seats = ["you", _builtin("tri-area", "random")]
    _start(c, "tri-area", seats)  # queued (nothing dispatched in this test): unfinished
    r = c.post("/play/new/", {"game": "tri-area", "seat_0": "you", "seat_1": seats[1]})
    assert r.status_code == 429 and b"unfinished" in r.content
    Match.objects.update(status=MatchStatus.FINISHED)
    _start(c, "tri-area", seats)
    Match.objects.update(status=MatchStatus.FINISHED)
    r = c.post("/play/new/", {"game": "tri-area", "seat_0": "you", "seat_1": seats[1]})
    assert r.status_code == 429 and b"24 hours" in r.content
    assert PlaySeat.objects.filter(user=user).count() == 2
    assert len(sent) == 2  # each started match was sent to the workers once, after commit


def test_start_form_errors_are_messages(games: Any, user: Any) -> None:
    c = _client(user)
    r = c.post(
        "/play/new/",
        {
            "game": "trnd",
            "seat_0": _builtin("trnd", "random"),
            "seat_1": _builtin("trnd", "greedy"),
            "seat_2": _builtin("trnd", "random"),
        },
    )
    assert r.status_code == 400 and b"Take at least one seat yourself" in r.content
    r = c.post(
        "/play/new/", {"game": "trnd", "seat_0": "you", "seat_1": _builtin("trnd", "random")}
    )
    assert r.status_code == 400 and b"players, not 2." in r.content
    r = c.post("/play/new/", {"game": "trnd", "seat_0": "you", "seat_1": "999999"})
    assert r.status_code == 400 and b"no such bot" in r.content
    assert Client().get("/play/new/?game=trnd").status_code == 302  # log in first
    assert Match.objects.count() == 0


def test_game_options_from_the_form(games: Any, user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "dispatch_match", lambda m: None)
    c = _client(user)
    page = c.get("/play/new/?game=trnd").content.decode()
    assert 'name="option_max_rounds"' in page and 'value="60"' in page
    seats = {
        "seat_0": "you",
        "seat_1": _builtin("trnd", "greedy"),
        "seat_2": _builtin("trnd", "random"),
    }
    form = {"game": "trnd", "options_form": "1", "option_scoring": "square", **seats}
    r = c.post("/play/new/", {**form, "option_max_rounds": "2"})
    assert r.status_code == 302
    assert Match.objects.get().options == {"max_rounds": 2}  # only what differs from defaults
    r = c.post("/play/new/", {**form, "option_max_rounds": "0"})
    assert r.status_code == 400 and b"at least 1" in r.content
    r = c.post("/play/new/", {**form, "option_max_rounds": "many"})
    assert r.status_code == 400 and b"whole number" in r.content
    # a form without the options section keeps every default, booleans included
    Match.objects.all().delete()
    r = c.post("/play/new/", {"game": "trishaw-frenzy", "seat_0": "you"})
    assert r.status_code == 302 and Match.objects.get().options == {}


def test_the_game_and_bot_pages_offer_a_game(games: Any, user: Any) -> None:
    from bots.models import Bot

    _builtin("trnd", "greedy")
    c = _client(user)
    assert "/play/new/?game=trnd" in c.get("/games/trnd/").content.decode()
    greedy = Bot.objects.get(game__slug="trnd", name="greedy")
    assert f"/play/new/?bot={greedy.pk}" in c.get(f"/bots/{greedy.pk}/").content.decode()
    page = c.get(f"/play/new/?bot={greedy.pk}").content.decode()
    assert f'value="{greedy.latest_version().pk}" selected' in page


def test_the_fallback_cache_is_shared_between_processes(settings: Any, tmp_path: Any) -> None:
    """With a per-process default cache, the channel uses a file cache that another process
    (a worker) sees."""
    # The site's own default is shared (Redis, or the database cache: meeple/settings.py); this
    # is the fallback for an installation configured with a per-process one.
    locmem = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.CACHES = locmem
    store = ch.play_cache()
    assert type(store).__name__ == "FileBasedCache"
    code = (
        f"import django, os; import meeple.settings as s; s.CACHES = {locmem!r}; django.setup();"
        "from play.channel import play_cache;"
        "play_cache().set('play:1:0:ans:7', 3, 60)"
    )
    env = platform_env(DJANGO_SETTINGS_MODULE="meeple.settings", ARENA_DATA_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=True, timeout=60)
    assert store.get("play:1:0:ans:7") == 3


def test_a_persons_match_goes_to_the_people_queue_under_the_people_limit(settings: Any) -> None:
    """People's matches never reach the workers of bots' matches (deploy/SCALING.md, "People's
    matches"); tests/workers/test_people_queue.py plays it with real workers."""
    from matches.tasks import play_match, play_person_match, task_for
    from meeple.celery import app

    assert task_for(MatchKind.HUMAN) is play_person_match
    for kind in set(MatchKind) - {MatchKind.HUMAN}:
        assert task_for(kind) is play_match
    route = app.amqp.router.route({}, play_person_match.name)
    assert route["queue"].name == settings.PEOPLE_QUEUE == "people"
    assert app.amqp.router.route({}, play_match.name)["queue"].name == "celery"
    # The match's own limit starts with its referee: the task's leaves room for the waits before.
    limit = settings.ARENA_HUMAN_MATCH_TIME_LIMIT_S + settings.ARENA_MATCH_PREP_S
    assert (play_person_match.soft_time_limit, play_person_match.time_limit) == (limit, limit + 30)


def test_the_embedded_default_runs_a_worker_for_people(settings: Any) -> None:
    from foundation.workers import worker_commands

    settings.ARENA_HUMAN_OPEN_LIMIT = 3
    bots, people, builds = worker_commands(concurrency=2, beat=True)
    assert "-Q" not in bots and "--beat" in bots  # the default queue, and the schedule
    assert people[people.index("-Q") + 1] == "people" and "--beat" not in people
    assert "--concurrency=3" in people  # one process per game a person may have open
    assert builds[builds.index("-Q") + 1] == "builds"  # uploads are checked here too
    assert len(worker_commands(people=False)) == 2
