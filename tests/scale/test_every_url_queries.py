"""Every URL the site has costs the same number of queries whatever the site holds (issue 24).

The URLs come from the URL conf itself (``get_resolver`` walked to its leaves: the site, the
API and every admin page of every registered model), never from a hand list, so a new URL is
measured the day it exists; its path parameters are filled from objects made here, chosen to
grow with the site (the bot that plays every match, the author with the most bots, the
tournament with the most entrants). Each is asked twice at two sizes of the same site, by a
staff user who also owns bots (so owner-only and admin pages draw everything they can); the
second answer's queries must be equal at both sizes. A parameter this file cannot fill fails
the test until a target is added for it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from audiences.models import Audience, AudienceMember
from axes.models import AccessAttempt, AccessFailureLog, AccessLog  # type: ignore[import-untyped]
from bots.models import Bot, BotVersion
from bots.services import person_version
from competitions.leagues.services import create_league, run_league_round
from competitions.models import CompetitionMatch
from competitions.tournaments.services import create_tournament, start_tournament
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.models import Count, Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)
from ladder.entries import ensure_entries
from ladder.models import LadderMatch, LadderState
from matches.models import Match, MatchKind, MatchSeat
from matches.services import create_match
from play.models import PlaySeat
from ratings.models import Rating, RatingChange
from rest_framework.authtoken.models import Token

from tests.scale.conftest import History

#: Pages asked with a query string as well (the URL conf knows paths, not queries): the play
#: chooser for a game and for a bot (issue 24 names both), and a second page of "My bots".
WITH_QUERIES = {
    "play:new": ["?game={game}", "?bot={bot}"],
    "bots:mine": ["?page=2"],
    "play:state": ["?tab={tab}"],  # as the seat's page polls it, from the tab holding it
}

#: What each answer may be: a page, a redirect (the admin's bare object URL, log-in pages
#: of a signed-in user), 405 for the URLs that are POST-only actions (asked anyway: their
#: refusal must cost the same too), 403 for the admin's autocomplete without a configured
#: field, 404 for the admin's catch-all of an unknown page, 409 for a person's seat polled
#: without the tab that holds it.
ALLOWED = {200, 302, 403, 404, 405, 409}


@dataclass
class Route:
    path: str  # the pattern, from the root: "bots/<id:pk>/", "admin/(?P<url>.*)$"
    name: str  # namespaced name, "" when unnamed
    callback: Any


def _walk(resolver: URLResolver, prefix: str = "", ns: str = "") -> Iterator[Route]:
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            inner = ns + (f"{p.namespace}:" if p.namespace else "")
            yield from _walk(p, prefix + str(p.pattern), inner)
        elif isinstance(p, URLPattern):
            yield Route(prefix + str(p.pattern), ns + (p.name or "") if p.name else "", p.callback)


PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


@dataclass
class Site:
    """The objects whose pages are measured (the same roles at both sizes)."""

    staff: Any
    bot: Bot
    match: Match
    tournament: int
    league: int
    play_match: int
    tab: str = ""


def _object_for(model: type[Model], site: Site) -> Any:
    """The admin object of ``model`` to open: the grown one where a model has one."""
    chosen = {
        get_user_model(): site.staff.pk,
        Bot: site.bot.pk,
        BotVersion: site.bot.versions.order_by("-number")[0].pk,
        Match: site.match.pk,
        MatchSeat: site.match.seats.order_by("seat")[0].pk,
        Rating: Rating.objects.filter(bot=site.bot).values_list("pk", flat=True).first(),
        RatingChange: RatingChange.objects.filter(bot=site.bot).order_by("pk")[0].pk,
        CompetitionMatch: CompetitionMatch.objects.filter(tournament_id=site.tournament)[0].pk,
    }
    if model in chosen:
        return chosen[model]
    if model._meta.proxy and model._meta.concrete_model is Token:  # its admin opens by user
        return site.staff.pk
    row = model._default_manager.order_by("pk").first()
    assert row is not None, f"make a {model.__name__} in _other_rows to measure its admin pages"
    return row.pk


def _value(route: Route, param: str, site: Site) -> Any:
    name = route.name
    if name == "admin:view_on_site":  # a bot's "view on site" (404: models link no page)
        bot_type = ContentType.objects.get_for_model(Bot).pk
        return bot_type if param == "content_type_id" else site.bot.pk
    if name == "admin:auth_user_password_change":
        return site.staff.pk
    if param == "object_id":
        return _object_for(route.callback.model_admin.model, site)
    if param == "slug":
        return site.bot.game.slug
    fixed = {
        "app_label": "bots",
        "url": "no-such-page/",
        "n": 3,
        "seat": 0,
        "section": "bots",
        "code": "1.not-the-secret",  # an invitation's code: a wrong one (404) costs the same
    }
    if param in fixed:
        return fixed[param]
    if param == "match_id":
        return site.play_match
    if name == "api-version-code":  # a version's code: the bot's first version
        return site.bot.versions.order_by("number").values_list("pk", flat=True).first()
    owners = [
        (("api-bot", "bots:", "ladder:"), site.bot.pk),
        (("api-match", "matches:"), site.match.pk),
        (("api-tournament", "competitions:tournament_"), site.tournament),
        (("api-league", "competitions:league_"), site.league),
    ]
    for prefixes, value in owners:
        if param == "pk" and name.startswith(prefixes):
            return value
    raise AssertionError(f"no target for {param!r} of {route.path} ({name}): add one here")


def _fill(route: Route, site: Site) -> str:
    def sub(m: re.Match[str]) -> str:
        return str(_value(route, m.group(1) or m.group(2), site))

    path = PARAM.sub(sub, route.path).replace("^", "").replace("$", "")
    if route.name == "admin:app_list":
        path = f"admin/{_value(route, 'app_label', site)}/"
    return "/" + path


def every_url(site: Site) -> dict[str, str]:
    urls = {}
    for route in _walk(get_resolver()):
        url = _fill(route, site)
        urls[f"{route.path} [{route.name or 'unnamed'}]"] = url
        for query in WITH_QUERIES.get(route.name, []):
            urls[f"{route.path}{query}"] = url + query.format(
                game=site.bot.game.slug, bot=site.bot.pk, tab=site.tab
            )
    return urls


def _own_bots(history: History, staff: Any, n: int) -> list[BotVersion]:
    """``n`` more bots of the staff user (two versions each, as the history's authors')."""
    start = Bot.objects.filter(owner=staff).count()
    versions = []
    for i in range(start, start + n):
        bot = Bot.objects.create(owner=staff, game=history.game, name=f"mine{i}")
        bot.versions.create(number=1, builtin_name="random")
        versions.append(bot.versions.create(number=2, builtin_name="builder"))
    history.versions += versions
    return versions


def _play_with(history: History, version: BotVersion, n: int) -> Match:
    """``n`` two-seat matches of ``version`` against the others, recorded; the last one."""
    last = None
    for _ in range(n):
        other = history.rng.choice([v for v in history.versions if v.bot_id != version.bot_id])
        match = create_match(game=history.game, versions=[version, other], seed=n)
        last = history.finish(match)
    assert last is not None
    return last


def _competitions(
    history: History, staff: Any, mine: BotVersion, entrants: int, rounds: int
) -> tuple[int, int]:
    t = create_tournament(
        organiser=staff,
        game=history.game,
        name=f"cup {entrants}",
        entrants=[mine, *history.versions[-entrants:-1]],
        players_per_match=2,
    )
    for m in start_tournament(t, dispatch=False):
        history.finish(m)
    league = create_league(game=history.game, name=f"league {rounds}", players_per_match=2)
    for _ in range(rounds):
        for m in run_league_round(league, dispatch=False):
            history.finish(m)
    return t.pk, league.pk


def _other_rows(history: History, staff: Any, match: Match) -> int:
    """A row of every admin model nothing else makes (so its change and delete pages are
    measured), the staff user's token, and a match with a person in seat 0; its id."""
    people = create_match(
        game=history.game,
        versions=[person_version(history.game), history.versions[0]],
        kind=MatchKind.HUMAN,
        rated=False,
    )
    PlaySeat.objects.create(match=people, seat=0, user=staff)
    LadderMatch.objects.get_or_create(
        match=match, defaults={"game": history.game, "kind": "challenge", "challenger": staff}
    )
    ensure_entries(history.game)
    LadderState.objects.get_or_create(game=history.game)
    Token.objects.get_or_create(user=staff)
    Group.objects.get_or_create(name="organisers")
    ClockedSchedule.objects.get_or_create(clocked_time="2030-01-01T00:00:00Z")
    SolarSchedule.objects.get_or_create(event="sunrise", latitude=1, longitude=1)
    CrontabSchedule.objects.get_or_create(minute="7")
    every, _ = IntervalSchedule.objects.get_or_create(every=9, period=IntervalSchedule.MINUTES)
    PeriodicTask.objects.get_or_create(name="measured", defaults={"task": "t", "interval": every})
    seen = {"username": "someone", "ip_address": "127.0.0.1", "user_agent": "t"}
    AccessAttempt.objects.get_or_create(**seen, defaults={"failures_since_start": 1})
    AccessFailureLog.objects.get_or_create(**seen, defaults={"locked_out": False})
    AccessLog.objects.get_or_create(**seen)
    audience, _ = Audience.objects.get_or_create(label="measured")
    AudienceMember.objects.get_or_create(audience=audience, user=staff)
    LogEntry.objects.log_actions(
        user_id=staff.pk, queryset=Bot.objects.filter(owner=staff)[:1], action_flag=ADDITION
    )
    return people.pk


def _grow(history: History, staff: Any, *, authors: int, mine: int, matches: int,
          entrants: int, rounds: int) -> Site:  # fmt: skip
    history.add_bots(authors)
    own = _own_bots(history, staff, mine)
    bot = Bot.objects.filter(owner=staff).order_by("pk")[0]
    version = bot.versions.order_by("-number")[0]
    history.play(matches)
    match = _play_with(history, version, matches)
    tournament, league = _competitions(history, staff, own[-1], entrants, rounds)
    return Site(staff, bot, match, tournament, league, _other_rows(history, staff, match))


def _claimed(client: Client, site: Site) -> Site:
    """The person's seat taken by this client's tab (the seat's page does it on load)."""
    answer = client.post(f"/play/{site.play_match}/0/claim", "{}", content_type="application/json")
    assert answer.status_code == 200, answer.content
    site.tab = answer.json()["tab"]
    return site


def _measure(client: Client, urls: dict[str, str]) -> dict[str, tuple[int, int]]:
    counts = {}
    for key, url in urls.items():
        client.get(url)  # warm: caches as a server's would be
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code in ALLOWED, (key, url, response.status_code)
        counts[key] = (response.status_code, len(ctx.captured_queries))
    return counts


@pytest.mark.django_db
def test_every_url_costs_the_same_queries_at_two_sizes(history: History, client: Client) -> None:
    staff = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw")
    client.force_login(staff)
    small_site = _grow(history, staff, authors=6, mine=3, matches=6, entrants=3, rounds=1)
    small = _measure(client, every_url(_claimed(client, small_site)))

    big_site = _grow(history, staff, authors=30, mine=21, matches=60, entrants=12, rounds=3)
    assert big_site.bot.pk == small_site.bot.pk
    grown = Bot.objects.filter(owner=staff).annotate(n=Count("versions__seats"))
    assert max(b.n for b in grown) > 10 * 6  # the measured bot's history did grow
    big = _measure(client, every_url(_claimed(client, big_site)))

    assert big.keys() == small.keys()
    assert len(small) > 150  # the site, the API and every admin page
    pages = sum(1 for status, _ in small.values() if status == 200)
    assert pages > 120, small  # most are real pages, not refusals
    differ = {k: (small[k], big[k]) for k in small if small[k] != big[k]}
    assert not differ, differ
