"""What makes the site scale, checked for what it shows: keyset pages that visit every match
once, replays served as stored (gzip, ETag, cache headers), cached viewer steps, counters
equal to a recount, the leaderboard's pages and "find my bot"."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

from bots.models import Bot
from catalog.models import Game
from django.db import connection
from django.test.utils import CaptureQueriesContext
from matches.models import Match, MatchStatus, ReplayDocument
from matches.services import create_match, record_outcome, recount_game_counters

from arena.viewer import steps as replay_steps
from tests.scale.conftest import History


def _ids_on_page(html: str) -> list[int]:
    return [int(x) for x in re.findall(r'href="/matches/(\d+)/"', html)]


def test_match_pages_visit_every_match_once_both_ways(history: History, client: Any) -> None:
    history.add_bots(4)
    played = history.play(60)
    want = sorted((m.pk for m in played), reverse=True)
    seen, url, pages = [], "/matches/", []
    while url:
        html = client.get(url).content.decode()
        pages.append(url)
        seen += _ids_on_page(html.split('<table class="matches', 1)[1])
        older = re.search(r'href="\?(before=\d+)" rel="next"', html)
        url = f"/matches/?{older.group(1)}" if older else ""
    assert seen == want and len(pages) == 3  # 25 + 25 + 10, newest first
    # Back from the last page with "newer": the middle page again, the same 25 matches.
    html = client.get(pages[-1]).content.decode()
    newer = re.search(r'href="\?(after=\d+)" rel="prev"', html).group(1)
    back = _ids_on_page(client.get(f"/matches/?{newer}").content.decode().split("<table", 1)[1])
    assert back == want[25:50]


def test_api_match_cursor_pages_and_filters(history: History, api_client: Any) -> None:
    history.add_bots(4)
    played = history.play(70)
    seen, url = [], "/api/matches/?status=finished"
    while url:
        page = api_client.get(url).json()
        # a bounded count (never a COUNT over every match: ARENA_MATCH_COUNT_LIMIT), the same
        # on every cursor page
        assert (page["count"], page["count_capped"]) == (70, False)
        seen += [row["id"] for row in page["results"]]
        url = page["next"]
    assert seen == sorted((m.pk for m in played), reverse=True)
    bot = history.versions[0].bot_id
    rows = api_client.get(f"/api/matches/?bot={bot}").json()["results"]
    mine = {m.pk for m in played if m.seats.filter(bot_version__bot_id=bot).exists()}
    assert {r["id"] for r in rows} == mine and len(rows) == len(mine)  # no duplicates


def test_replay_api_serves_the_stored_gzip_with_etag(history: History, client: Any) -> None:
    history.add_bots(2)
    match = history.play(1)[0]
    doc = ReplayDocument.objects.get(match=match)
    zipped = client.get(f"/api/matches/{match.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert zipped.status_code == 200 and zipped["Content-Encoding"] == "gzip"
    assert zipped.content == bytes(doc.data)  # the stored bytes, not re-encoded
    assert "immutable" in zipped["Cache-Control"] and "Accept-Encoding" in zipped["Vary"]
    replay = json.loads(gzip.decompress(zipped.content))
    assert replay["format"] == "meeple-arena-replay" and replay == match.replay
    plain = client.get(f"/api/matches/{match.pk}/replay/")
    assert "Content-Encoding" not in plain and plain.json() == replay
    again = client.get(f"/api/matches/{match.pk}/replay/", HTTP_IF_NONE_MATCH=zipped["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert client.get("/api/matches/999999/replay/").status_code == 404


def test_match_list_rows_never_load_replays(history: History, client: Any) -> None:
    history.add_bots(3)
    history.play(5)
    with CaptureQueriesContext(connection) as ctx:
        client.get("/matches/")
        client.get("/api/matches/")
    assert ctx.captured_queries and not any(
        "replaydocument" in q["sql"].lower() for q in ctx.captured_queries
    )


def test_steps_are_rendered_once_then_cached_with_etag(
    history: History, client: Any, monkeypatch: Any
) -> None:
    history.add_bots(2)
    match = history.play(1)[0]
    url = f"/matches/{match.pk}/steps/4.json"
    first = client.get(url)
    want = replay_steps.step(match.replay, 4)
    assert first.status_code == 200 and first.json() == json.loads(json.dumps(want))
    assert first["ETag"] and "max-age" in first["Cache-Control"]

    def boom(*_: Any) -> None:
        raise AssertionError("the step was re-simulated")

    monkeypatch.setattr(replay_steps, "step", boom)
    with CaptureQueriesContext(connection) as ctx:
        second = client.get(url)
    # Who may see the match (its audience), the replay's SHA-256, and the cache read itself
    # when the cache is the database's.
    assert second.content == first.content and len(ctx.captured_queries) <= 3
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    monkeypatch.undo()
    total = len(match.replay["decisions"])
    assert client.get(f"/matches/{match.pk}/steps/{total + 1}.json").status_code == 404


def test_counters_equal_a_recount(history: History) -> None:
    history.add_bots(5)
    history.play(12)
    history.play(4, seats=3)
    broken = create_match(game=history.game, versions=history.versions[:2])
    record_outcome(broken.pk, {"status": "error", "error": "the worker died"})
    record_outcome(history.play(1)[0].pk, history.outcome(2))  # recorded twice: counted once
    history.add_bots(2)
    Bot.objects.filter(pk=history.versions[-1].bot_id).delete()  # a bot without matches
    stored = list(Game.objects.order_by("pk").values_list("slug", "bot_count", "match_count"))
    finished = Match.objects.filter(game=history.game, status=MatchStatus.FINISHED).count()
    assert (history.game.slug, 6, 17) in stored and finished == 17
    recount_game_counters()
    assert (
        list(Game.objects.order_by("pk").values_list("slug", "bot_count", "match_count")) == stored
    )


def test_leaderboard_pages_and_find_my_bot(history: History, client: Any) -> None:
    history.add_bots(62)
    history.play(70)
    slug = history.game.slug
    html = client.get(f"/games/{slug}/").content.decode()
    assert html.count('<tr id="bot-') == 50 and "next &rarr;" in html
    page2 = client.get(f"/games/{slug}/?page=2").content.decode()
    assert 0 < page2.count('<tr id="bot-') <= 12
    # The worst-rated bot is on the last page: ?bot= opens that page with its row marked.
    from ratings.selectors import leaderboard

    last = list(leaderboard(history.game))[-1]
    found = client.get(f"/games/{slug}/?bot={last.bot_id}").content.decode()
    assert f'<tr id="bot-{last.bot_id}" class="found">' in found
    assert found.count('<tr id="bot-') == page2.count('<tr id="bot-')
    owner = last.bot.owner
    client.force_login(owner)
    mine = client.get(f"/games/{slug}/").content.decode()
    assert f'href="?bot={last.bot_id}#bot-{last.bot_id}"' in mine


def _recomputed(matches: Any, key: Any) -> dict[str, tuple[Any, ...]]:
    """Statistics and points of a competition from its finished matches, oldest recorded
    first, by ``arena.ratings.standings`` and ``arena.formats.match_points``."""
    from arena.formats import match_points
    from arena.ratings import standings

    records, points = [], {}
    for m in matches.filter(status=MatchStatus.FINISHED).order_by("finished_at", "pk"):
        seats = list(m.seats.select_related("bot_version").order_by("seat"))
        names = [key(s) for s in seats]
        ranks = [s.rank for s in seats]
        records.append({"bots": names, "ranks": ranks, "scores": [s.score for s in seats]})
        for name, p in zip(names, match_points(ranks), strict=True):
            points[name] = points.get(name, 0.0) + p
    return {
        row.bot: (row.matches, row.wins, row.rank_sum, round(row.elo, 6), round(row.mu, 6),
                  round(row.sigma, 6), round(points.get(row.bot, 0.0), 6))
        for row in standings(records).rows
    }  # fmt: skip


def _stored(rows: Any, key: str) -> dict[str, tuple[Any, ...]]:
    return {
        str(getattr(r, key)): (r.matches, r.wins, r.rank_sum, round(r.elo, 6), round(r.mu, 6),
                               round(r.sigma, 6), round(r.points, 6))
        for r in rows if r.matches
    }  # fmt: skip


def test_stored_standings_equal_a_recomputation(
    history: History, django_capture_on_commit_callbacks: Any
) -> None:
    from competitions.leagues.services import create_league, run_league_round
    from competitions.models import LeagueStanding, TournamentEntry
    from competitions.tournaments.services import create_tournament, start_tournament

    history.add_bots(6)
    t = create_tournament(
        organiser=history.users[0], game=history.game, name="cup",
        entrants=history.versions[:5], players_per_match=2, games_per_pairing=2,
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        start_tournament(t)  # every round plays, each scheduled as the last one ends
    t.refresh_from_db()
    assert t.status == "finished" and t.matches.count() == 20
    stored = _stored(TournamentEntry.objects.filter(tournament=t), "version_id")
    assert stored == _recomputed(t.matches.all(), lambda s: str(s.bot_version_id))

    lg = create_league(game=history.game, name="weekly", players_per_match=2)
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            run_league_round(lg)
    assert lg.matches.filter(status=MatchStatus.FINISHED).count() == 9
    alltime = LeagueStanding.objects.filter(league=lg, season=None)
    assert _stored(alltime, "bot_id") == _recomputed(
        lg.matches.all(), lambda s: str(s.bot_version.bot_id)
    )
