"""Who may see and do what (docs/permissions.md), as data: every page and endpoint against
anonymous, the bot's owner, another user, an organiser (of the tournament and league here) and
staff. A new URL fails :func:`test_every_url_is_in_the_matrix` until it is given a row."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.security.badfiles import GOOD_MAIN
from tests.security.conftest import ROLES, SECRET_STDERR, World

A, OWN, X, G, S = ROLES  # anonymous, owner, other, organiser (carol), staff
LOGIN = "login"  # a redirect to the log-in page
ALL = dict.fromkeys(ROLES, 200)


def only(allowed: dict[str, int], denied: int | str, anonymous: int | str) -> dict[str, Any]:
    return {A: anonymous, **{r: allowed.get(r, denied) for r in ROLES[1:]}}


@dataclass
class Row:
    pattern: str  # the URL pattern's name
    method: str
    path: str
    expect: dict[str, Any]  # role -> status, or LOGIN
    api: bool = False
    body: Any = None


MATRIX = [
    # ---- pages
    Row("home", "get", "/", ALL),
    Row("healthz", "get", "/healthz", ALL),
    Row("list", "get", "/games/", ALL),
    Row("detail", "get", "/games/trnd/", ALL),
    Row("detail", "get", "/bots/{bot}/", ALL),
    Row("create", "get", "/bots/new/", only({}, 200, LOGIN)),
    Row("upload", "get", "/bots/{bot}/upload/", only({OWN: 200}, 403, LOGIN)),
    Row("compare", "get", "/bots/{bot}/compare/", only({OWN: 200}, 403, LOGIN)),
    Row("list", "get", "/matches/", ALL),
    Row("detail", "get", "/matches/{match}/", ALL),
    Row("step", "get", "/matches/{match}/steps/0.json", dict.fromkeys(ROLES, 404)),
    Row("status", "get", "/matches/{match}/status.json", ALL),
    Row("tournament_list", "get", "/tournaments/", ALL),
    Row("tournament_detail", "get", "/tournaments/{tournament}/", ALL),
    Row("tournament_status", "get", "/tournaments/{tournament}/status.json", ALL),
    Row("tournament_standings_csv", "get", "/tournaments/{tournament}/standings.csv", ALL),
    Row("tournament_standings_json", "get", "/tournaments/{tournament}/standings.json", ALL),
    Row("tournament_embed", "get", "/tournaments/{tournament}/embed/", ALL),
    Row("tournament_new", "get", "/tournaments/new/", only({G: 200, S: 200}, 403, LOGIN)),
    Row(
        "tournament_start",
        "post",
        "/tournaments/{draft}/start/",
        only({G: 302, S: 302}, 403, LOGIN),
    ),
    # ---- entries and members (issue 22): a refusal is a message on the page (302); the
    # managers' forms are 404 to whoever does not manage the tournament.
    Row("tournament_entry", "post", "/tournaments/{draft}/entry/", only({}, 302, LOGIN)),
    Row(
        "tournament_entrants",
        "post",
        "/tournaments/{draft}/entrants/",
        only({G: 302, S: 302}, 404, LOGIN),
    ),
    Row(
        "tournament_members",
        "post",
        "/tournaments/{draft}/members/",
        only({G: 302, S: 302}, 404, LOGIN),
    ),
    Row(
        "tournament_invite",
        "post",
        "/tournaments/{draft}/invite/",
        only({G: 302, S: 302}, 404, LOGIN),
    ),
    Row(
        "tournament_join", "get", "/tournaments/join/{draft}.not-the-secret/", only({}, 404, LOGIN)
    ),
    Row("league_list", "get", "/tournaments/leagues/", ALL),
    Row("league_detail", "get", "/tournaments/leagues/{league}/", ALL),
    Row("league_new", "get", "/tournaments/leagues/new/", only({G: 200, S: 200}, 403, LOGIN)),
    Row(
        "league_play_round",
        "post",
        "/tournaments/leagues/{league}/play/",
        only({G: 302, S: 302}, 403, LOGIN),
    ),
    Row("login", "get", "/accounts/login/", ALL),
    Row("signup", "get", "/accounts/signup/", ALL),
    Row("logout", "post", "/accounts/logout/", dict.fromkeys(ROLES, 302)),
    Row("account_settings", "get", "/accounts/settings/", only({}, 200, LOGIN)),
    # Deletes only the signed-in account, and only with its password (none given here: 400).
    Row("account_delete", "post", "/accounts/settings/delete/", only({}, 400, LOGIN)),
    Row("admin", "get", "/admin/", only({S: 200}, 302, 302)),
    # ---- people at the table (platform/play): only the seat's holder; no such seat here
    Row("mine", "get", "/play/", only({}, 200, LOGIN)),
    Row("new", "get", "/play/new/", only({}, 200, LOGIN)),
    Row("seat", "get", "/play/999999/0/", only({}, 404, LOGIN)),
    Row("claim", "post", "/play/999999/0/claim", only({}, 404, 401), body={}),
    Row("state", "get", "/play/999999/0/state.json", only({}, 404, 401)),
    Row("act", "post", "/play/999999/0/act", only({}, 404, 401), body={"turn": 0, "index": 0}),
    Row("resign", "post", "/play/999999/0/resign", only({}, 404, 401), body={}),
    Row("rules", "get", "/games/trnd/rules/", ALL),
    Row("starter_bot", "get", "/games/trnd/starter-bot.zip", ALL),
    # Pinning someone else's bot is refused with a message on its page (a redirect).
    Row("pin", "post", "/bots/{bot}/pin/", only({}, 302, LOGIN)),
    Row("challenge", "get", "/bots/{bot}/challenge/", only({}, 405, LOGIN)),  # POST only
    Row("replay_download", "get", "/matches/{match}/replay.json", dict.fromkeys(ROLES, 404)),
    Row("logs", "get", "/matches/{match}/logs.json", ALL),  # each role: only its own seats
    # ---- notifications: each signed-in user's own (no id in these paths names anyone else's)
    Row("list", "get", "/notifications/", only({}, 200, LOGIN)),
    Row("mark_all_read", "post", "/notifications/read/", only({}, 302, LOGIN)),
    Row("preferences", "post", "/notifications/preferences/", only({}, 302, LOGIN)),
    Row("protocol", "get", "/docs/protocol/", ALL),
    Row("api_guide", "get", "/docs/api/", ALL),
    # ---- for crawlers: public pages only (tests/privacy/test_sitemap.py)
    Row("robots", "get", "/robots.txt", ALL),
    Row("sitemap", "get", "/sitemap.xml", ALL),
    Row("sitemap_section", "get", "/sitemap-tournaments.xml", ALL),
    # ---- API (token authentication; 401 when none is given and one is needed)
    Row("api-schema", "get", "/api/schema/", ALL, api=True),
    Row("api-docs", "get", "/api/docs/", ALL, api=True),
    Row("api-token", "post", "/api/auth/token/", dict.fromkeys(ROLES, 400), api=True, body={}),
    Row("api-games", "get", "/api/games/", ALL, api=True),
    Row("api-game", "get", "/api/games/trnd/", ALL, api=True),
    Row("api-leaderboard", "get", "/api/games/trnd/leaderboard/", ALL, api=True),
    Row("api-bots", "get", "/api/bots/", ALL, api=True),
    Row(
        "api-bots",
        "post",
        "/api/bots/",
        only({}, 201, 401),
        api=True,
        body={"game": "trnd", "name": "new-{role}"},
    ),
    Row("api-bot", "get", "/api/bots/{bot}/", ALL, api=True),
    Row("api-bot-versions", "get", "/api/bots/{bot}/versions/", ALL, api=True),
    Row(
        "api-bot-versions",
        "post",
        "/api/bots/{bot}/versions/",
        only({OWN: 201}, 403, 401),
        api=True,
        body="upload",
    ),
    # A version's code: its owner's alone (a built-in has none); staff run bots, not read them.
    Row(
        "api-version-code",
        "get",
        "/api/versions/{version}/code/",
        only({OWN: 200}, 404, 401),
        api=True,
    ),
    Row("api-version-code", "get", "/api/versions/{builtin}/code/", only({}, 404, 401), api=True),
    Row("api-matches", "get", "/api/matches/", ALL, api=True),
    Row("api-match", "get", "/api/matches/{match}/", ALL, api=True),
    Row(
        "api-match-replay",
        "get",
        "/api/matches/{match}/replay/",
        dict.fromkeys(ROLES, 404),
        api=True,
    ),
    Row("api-tournaments", "get", "/api/tournaments/", ALL, api=True),
    Row(
        "api-tournaments",
        "post",
        "/api/tournaments/",
        only({G: 201, S: 201}, 403, 401),
        api=True,
        body={
            "game": "trnd",
            "name": "T",
            "entrants": ["{builtin}", "{builtin2}", "{builtin3}"],
            "players_per_match": 3,
        },
    ),
    Row("api-tournament", "get", "/api/tournaments/{tournament}/", ALL, api=True),
    Row(
        "api-tournament-standings", "get", "/api/tournaments/{tournament}/standings/", ALL, api=True
    ),
    Row(
        "api-tournament-crosstable",
        "get",
        "/api/tournaments/{tournament}/crosstable/",
        ALL,
        api=True,
    ),
    Row("api-leagues", "get", "/api/leagues/", ALL, api=True),
    Row(
        "api-leagues",
        "post",
        "/api/leagues/",
        only({G: 201, S: 201}, 403, 401),
        api=True,
        body={"game": "trnd", "name": "L-{role}"},
    ),
    Row("api-league", "get", "/api/leagues/{league}/", ALL, api=True),
    Row("api-league-standings", "get", "/api/leagues/{league}/standings/", ALL, api=True),
    Row(
        "api-league-play",
        "post",
        "/api/leagues/{league}/play/",
        only({G: 202, S: 202}, 403, 401),
        api=True,
    ),
    Row("api-ladder", "get", "/api/games/trnd/ladder/", ALL, api=True),
    # Not on the ladder (no qualification played here): 404 for everyone.
    Row("api-bot-ladder", "get", "/api/bots/{bot}/ladder/", dict.fromkeys(ROLES, 404), api=True),
    Row(
        "api-bot-pin",
        "post",
        "/api/bots/{bot}/pin/",
        only({OWN: 200}, 403, 401),
        api=True,
        body={"version": None},
    ),
    Row("api-bot-rating-history", "get", "/api/bots/{bot}/rating-history/", ALL, api=True),
    Row("api-bot-head-to-head", "get", "/api/bots/{bot}/head-to-head/", ALL, api=True),
    Row("api-bot-stats", "get", "/api/bots/{bot}/stats/", ALL, api=True),
    # The owner's bot has one version: nothing to compare, said in a 400.
    Row("api-bot-compare", "get", "/api/bots/{bot}/compare/", only({OWN: 400}, 403, 401), api=True),
    Row("api-challenges", "get", "/api/challenges/", only({}, 200, 401), api=True),
    Row("api-notifications", "get", "/api/notifications/", only({}, 200, 401), api=True),
    Row(
        "api-notifications-read",
        "post",
        "/api/notifications/read/",
        only({}, 200, 401),
        api=True,
        body={"all": True},
    ),
    Row(
        "api-notifications-preferences",
        "get",
        "/api/notifications/preferences/",
        only({}, 200, 401),
        api=True,
    ),
    Row(
        "api-tournament-start",
        "post",
        "/api/tournaments/{draft}/start/",
        only({G: 202, S: 202}, 403, 401),
        api=True,
    ),
    Row("api-tournament-entries", "get", "/api/tournaments/{draft}/entries/", ALL, api=True),
    Row(
        "api-tournament-entries",
        "post",
        "/api/tournaments/{draft}/entries/",
        only({}, 400, 401),
        api=True,
        body={},
    ),
    Row(
        "api-tournament-members",
        "get",
        "/api/tournaments/{draft}/members/",
        only({G: 200, S: 200}, 404, 401),
        api=True,
    ),
    Row(
        "api-tournament-invite",
        "get",
        "/api/tournaments/{draft}/invite/",
        only({G: 200, S: 200}, 404, 401),
        api=True,
    ),
    Row(
        "api-tournament-join",
        "post",
        "/api/tournaments/join/",
        only({}, 404, 401),
        api=True,
        body={"token": "{draft}.not-the-secret"},
    ),
]


def _cells() -> list[tuple[Row, str]]:
    return [(row, role) for row in MATRIX for role in ROLES]


def _fill(value: Any, ids: dict[str, Any]) -> Any:
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


def _ids(world: World, role: str) -> dict[str, Any]:
    return {**world.ids(), "builtin3": world.builtin3.pk, "role": role}


@pytest.mark.parametrize(
    ("row", "role"), _cells(), ids=[f"{r.method}:{r.path}:{role}" for r, role in _cells()]
)
def test_permission_matrix(world: World, row: Row, role: str, celery_inline: None) -> None:
    ids = _ids(world, role)
    path = _fill(row.path, ids)
    if row.api:
        client = world.api(role)
        if row.body == "upload":
            from django.core.files.uploadedfile import SimpleUploadedFile

            code = GOOD_MAIN + b"# a new version\n"  # not v1's bytes (an identical one is a 409)
            response = client.post(path, {"code": SimpleUploadedFile("main.py", code)})
        elif row.method == "post":
            response = client.post(
                path, data=json.dumps(_fill(row.body or {}, ids)), content_type="application/json"
            )
        else:
            response = client.get(path)
    else:
        client = world.web(role)
        if row.body is not None:
            response = client.post(path, json.dumps(row.body), content_type="application/json")
        else:
            response = getattr(client, row.method)(path)
    want = row.expect[role]
    if want == LOGIN:
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == want, response.content[:300]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    # Private stderr appears nowhere but on the match page and its logs.json, for the owner
    # and staff.
    shows_stderr = SECRET_STDERR.encode() in body
    private = (row.pattern == "detail" and "/matches/" in path) or row.pattern == "logs"
    assert shows_stderr == (private and role in (OWN, S))


def test_every_url_is_in_the_matrix() -> None:
    named: set[str] = set()

    def walk(patterns: list[Any], prefix: str = "") -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin/"):
                    named.add("admin")
                    continue
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                named.add(p.name or str(p.pattern))

    walk(get_resolver().url_patterns)
    assert named - {row.pattern for row in MATRIX} == set()


def test_organiser_of_another_league_cannot_play_it(world: World, django_user_model) -> None:
    from competitions.permissions import ORGANISERS_GROUP
    from django.contrib.auth.models import Group

    rival = django_user_model.objects.create_user("erin", password="pw-erin-123")
    rival.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = world.web("anonymous")
    client.force_login(rival)
    before = world.league.rounds_played
    response = client.post(f"/tournaments/leagues/{world.league.pk}/play/")
    assert response.status_code == 403 and "organiser or staff" in response.content.decode()
    world.league.refresh_from_db()
    assert world.league.rounds_played == before
