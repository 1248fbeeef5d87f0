"""The permission matrix (issue 22): every URL of the site and the API, from the URL conf
itself (``get_resolver`` walked to its leaves, as tests/scale/test_every_url_queries.py does,
whose parameter filling this reuses), asked by five people about a private tournament's
objects (the tournament, a match where the outsider's own bot sat, its seats and replay) and
about their public twins. A URL whose parameter cannot be filled fails the test, naming its
pattern (add a target in tests/scale/test_every_url_queries.py, or an override here).

Anyone outside the private tournament (anonymous, a signed-in outsider) must:
* never get a 200 on a private object's URL, and get exactly what an id that never existed
  gets (404 as for nothing; 405 or a log-in redirect before any lookup): GET and POST;
* never find the tournament's name or its matches' ids in any answer (lists, counts, pages of
  bots that played in it, the sitemap, the admin's log-in redirect), except an id they typed.
Its member, organiser and staff get on its URLs what they get on the public twin's.
The admin (every registered model's pages) is staff-only: never a 200 to the others."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from bots.models import Bot
from django.test import Client
from django.urls import get_resolver
from matches.models import Match
from rest_framework.authtoken.models import Token

from tests.privacy.world import SECRET_NAME, World
from tests.scale import test_every_url_queries as every
from tests.scale.test_every_url_queries import Route, Site

#: An id no row has (the tables start far below it).
GHOST = 999_999_999
#: Extra queries on list URLs that name private objects (the URL conf knows no queries).
LIST_QUERIES = {
    "api-matches": ["?tournament={t}", "?bot={bot}", "?owner=outsider", "?mine=true"],
    "matches:list": ["?bot={bot}", "?owner=outsider"],
    "api-tournaments": ["?page=1"],
}
#: Admin pages anyone may open (the log-in form, no object).
ADMIN_OPEN = {"admin:login"}
NON_MEMBERS = ("anonymous", "outsider")
#: A person's seat (play/<match>/<seat>/): a competition's match has none, so its private
#: id is a 404 to all alike, and its public twin is another kind of match (people's).
PEOPLES_TABLES = "play/"
INSIDERS = ("member", "organiser", "staff")


@dataclass(frozen=True)
class Row:
    """One URL pattern filled three ways: with the private objects, their public twins and
    ids of nothing."""

    key: str
    private: str
    public: str
    ghost: str

    @property
    def is_admin(self) -> bool:
        return self.key.startswith("admin/")

    @property
    def names_private(self) -> bool:
        return self.private != self.public


def _site(world: World, *, private: bool) -> Site:
    match = world.private_match if private else world.public_match
    tournament = world.private if private else world.public
    play = match.pk if private else world.play_match
    return Site(world.staff, world.bot, match, tournament.pk, world.league, play)


def _value(route: Route, param: str, site: Site) -> Any:
    """A parameter's value: the scale test's targets, but for the few that differ here."""
    if param == "code":
        # An invitation link: its holder is invited and may see the tournament (the
        # membership tests). Here a code that is not current, which must look like nothing.
        return f"{site.tournament}.stale-code"
    if param == "section":
        return "tournaments"  # the sitemap's section that could list a private tournament
    return every._value(route, param, site)


def _fill(route: Route, site: Site) -> str:
    """The route's URL for ``site``'s objects; a parameter nothing can fill fails the test,
    naming the pattern (add a target in tests/scale/test_every_url_queries.py)."""

    def sub(m: re.Match[str]) -> str:
        return str(_value(route, m.group(1) or m.group(2), site))

    try:
        path = every.PARAM.sub(sub, route.path).replace("^", "").replace("$", "")
    except AssertionError as exc:
        raise AssertionError(
            f"privacy matrix: cannot fill {route.path} ({route.name}): {exc}"
        ) from exc
    if route.name == "admin:app_list":
        path = "admin/bots/"
    return "/" + path


def _ghost_url(route: Route, site: Site, url: str) -> str:
    """The private URL with the private ids swapped for ids of nothing."""
    for real in (str(site.match.pk), str(site.tournament), str(site.play_match)):
        url = re.sub(rf"/{real}(?=[/.])", f"/{GHOST}", url)
    return url


def matrix(world: World) -> Iterator[Row]:
    secret, public = _site(world, private=True), _site(world, private=False)
    for route in every._walk(get_resolver()):
        key = f"{route.path} [{route.name or 'unnamed'}]"
        hidden = _fill(route, secret)
        row = Row(key, hidden, _fill(route, public), _ghost_url(route, secret, hidden))
        yield row
        for query in LIST_QUERIES.get(route.name, []):
            q = query.format(t=world.private.pk, bot=world.bot.pk)
            yield Row(key + query, row.private + q, row.public + q, row.public + q)


def _clients(world: World) -> dict[str, Client]:
    """A client per role: signed in for the pages, and with an API token (the API reads it
    first), so that the API's writes are judged on the object, not refused for CSRF."""
    clients = {"anonymous": Client()}
    for role in ("outsider", "member", "organiser", "staff"):
        user = getattr(world, role)
        token, _ = Token.objects.get_or_create(user=user)
        clients[role] = Client(headers={"Authorization": f"Token {token.key}"})
        clients[role].force_login(user)
    return clients


def _secrets_in(body: str, asked: str, world: World) -> list[str]:
    """What of the private tournament ``body`` shows (its name, its matches' and its own ids)
    beyond what the URL ``asked`` already holds."""
    found = [SECRET_NAME] if SECRET_NAME in body else []
    ids = {*world.private_ids, world.private.pk}
    for pk in ids:
        if str(pk) not in asked and re.search(rf"(?<![0-9]){pk}(?![0-9])", body):
            found.append(str(pk))
    return found


def _ask(client: Client, url: str, method: str = "get") -> tuple[int, str]:
    answer = getattr(client, method)(url)
    body = b"".join(answer.streaming_content) if answer.streaming else answer.content
    return answer.status_code, body.decode("utf-8", "replace")


def _non_member_problems(row: Row, client: Client, world: World) -> list[str]:
    problems = []
    urls = [row.public] + ([row.private] if row.names_private else [])
    for url in urls:
        status, body = _ask(client, url)
        if status >= 500:
            problems.append(f"{url}: {status}")
        leaked = _secrets_in(body, url, world)
        if leaked:
            problems.append(f"{url}: shows {leaked}")
    if row.is_admin:
        status, _ = _ask(client, row.private)
        if status == 200 and row.key.split("[")[-1].rstrip("]") not in ADMIN_OPEN:
            problems.append(f"{row.private}: admin page answered 200")
        return problems
    if row.names_private:
        for method in ("get", "post"):
            status, _ = _ask(client, row.private, method)
            ghost, _ = _ask(client, row.ghost, method)
            if status == 200 or status != ghost:
                problems.append(f"{method} {row.private}: {status}, nothing's id: {ghost}")
    return problems


def _insider_problems(row: Row, client: Client) -> list[str]:
    if row.is_admin or not row.names_private or row.key.startswith(PEOPLES_TABLES):
        return []
    private, _ = _ask(client, row.private)
    public, _ = _ask(client, row.public)
    return [] if private == public else [f"{row.private}: {private}, public twin: {public}"]


@pytest.mark.django_db
def test_every_url_keeps_the_private_tournament_to_its_members(world: World) -> None:
    clients = _clients(world)
    rows = list(matrix(world))
    assert len(rows) > 150  # the site, the API and every admin page
    assert sum(r.names_private for r in rows if not r.is_admin) >= 15
    problems: dict[str, list[str]] = {}
    for row in rows:
        for role in NON_MEMBERS:
            found = _non_member_problems(row, clients[role], world)
            if found:
                problems[f"{role} {row.key}"] = found
        for role in INSIDERS:
            found = _insider_problems(row, clients[role])
            if found:
                problems[f"{role} {row.key}"] = found
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_an_unfillable_pattern_fails_with_its_name() -> None:
    route = Route("things/<id:widget>/", "things:detail", None)
    site = Site(None, Bot(pk=1), Match(pk=1), 1, 1, 1)
    with pytest.raises(AssertionError, match=r"cannot fill things/<id:widget>/ \(things:detail\)"):
        _fill(route, site)
