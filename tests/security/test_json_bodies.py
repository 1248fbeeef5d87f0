"""Every endpoint that reads a JSON body answers a hostile one with a clear 400, never a 500
(issue 18, item 7): ``[`` 100,000 times was a RecursionError in DRF's parser and in the play
views' ``json.loads``, the anonymous token log-in included. Through the real URLs, found from
the URL map: a JSON endpoint added later is tested without being listed here."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from foundation.parsers import BoundedJSONParser, load_json_body
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.views import APIView

from tests.security.conftest import World

DEEP = "[" * 100_000
DEEP_CLOSED = '{"name":' + "[" * 100_000 + "]" * 100_000 + "}"
WRITES = ("post", "put", "patch")
# Who may reach each view's body: the first role that is allowed to write there.
ROLES = ("staff", "organiser", "owner", "anonymous")
#: Views that take a POST but read no body: whatever is sent, they answer as they would.
BODYLESS = {
    "/api/tournaments/<id:pk>/start/",
    "/api/leagues/<id:pk>/play/",
    "/api/tournaments/<id:pk>/invite/",  # POST makes a new link
}


def _api_endpoints() -> list[tuple[str, str, type[APIView]]]:
    """(route pattern, method, view class) of every API view that takes a JSON body."""
    found = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                cls = getattr(p.callback, "cls", None)
                if not (isinstance(cls, type) and issubclass(cls, APIView)):
                    continue
                parsers = cls().get_parsers()
                if not any(isinstance(x, JSONParser) for x in parsers):
                    continue
                for method in WRITES:
                    if hasattr(cls, method):
                        found.append((prefix + str(p.pattern), method, cls))

    walk(get_resolver().url_patterns, "/")
    return found


def _url(route: str, world: World) -> str:
    ids = {"pk": world.bot.pk, "slug": "trnd"}
    if "tournaments" in route:
        ids["pk"] = world.draft.pk
    if "leagues" in route:
        ids["pk"] = world.league.pk
    for name, value in ids.items():
        for conv in ("id", "int", "slug"):
            route = route.replace(f"<{conv}:{name}>", str(value))
    assert "<" not in route, route
    return route


ENDPOINTS = _api_endpoints()


def test_the_json_endpoints_are_found() -> None:
    routes = {(r, m) for r, m, _ in ENDPOINTS}
    assert ("/api/auth/token/", "post") in routes  # the anonymous log-in
    assert ("/api/challenges/", "post") in routes
    assert len(routes) >= 5


@pytest.mark.parametrize("body", [DEEP, DEEP_CLOSED], ids=["open", "closed"])
@pytest.mark.parametrize(
    ("route", "method"),
    [(r, m) for r, m, _ in ENDPOINTS],
    ids=[f"{m} {r}" for r, m, _ in ENDPOINTS],
)
def test_deep_json_is_a_clear_400(world: World, route: str, method: str, body: str) -> None:
    url = _url(route, world)
    answers = []
    for role in ROLES:
        response = getattr(world.api(role), method)(url, body, content_type="application/json")
        assert response.status_code < 500, (role, response.status_code)
        answers.append((role, response.status_code, response.json()))
        if response.status_code == 400:
            break
    role, status, data = answers[-1]
    if route in BODYLESS:
        assert answers[0][1] < 300, answers  # read nothing, refused nothing
        return
    assert status == 400, answers
    assert data == {"detail": "The JSON body nests arrays and objects deeper than 64 levels."}


def test_other_unreadable_bodies_are_a_clear_400(world: World, settings: Any) -> None:
    client = world.api("anonymous")
    url = reverse("api-token")
    cases = {
        b'{"username": NaN}': "The request body is not JSON",
        b"\xff\xfe{}": "The request body is not text in utf-8.",
        # refused by the body cap before the parser (foundation.limits), which has its own
        b'{"username": "' + b"a" * 300_000 + b'"}': "limited to 256 KiB",
    }
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
    for body, message in cases.items():
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, body[:20]
        assert message in response.json()["detail"], response.json()
    # What passes the bounds still logs in: the parser reads JSON as before.
    ok = client.post(url, {"username": "alice", "password": "pw-alice-123"}, format="json").json()
    assert set(ok) >= {"token"}, ok


def test_the_parser_has_its_own_size_cap(settings: Any) -> None:
    # a body without Content-Length (chunked) passes the middleware: the parser still stops
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with pytest.raises(ParseError, match="1001 bytes; at most 1000 are read"):
        BoundedJSONParser().parse(io.BytesIO(b"[" + b"1," * 1000 + b"1]"))
    assert BoundedJSONParser().parse(io.BytesIO(b'{"a": [1]}')) == {"a": [1]}
    assert load_json_body(b'{"\\u00e9": 1}') == {"\u00e9": 1}


@pytest.mark.parametrize("action", ["claim", "act", "resign"])
@pytest.mark.parametrize("body", [DEEP, DEEP_CLOSED], ids=["open", "closed"])
def test_play_views_answer_deep_json_with_400(world: World, action: str, body: str) -> None:
    client = world.web("owner")
    url = reverse(f"play:{action}", args=[world.match.pk, 0])
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "The JSON body nests arrays and objects deeper than 64 levels."
    }


@pytest.mark.parametrize("action", ["claim", "act", "resign"])
def test_play_views_answer_a_form_body_with_400(world: World, action: str) -> None:
    """A multipart form is read as a form before the view (the NUL check, CSRF): the view's
    JSON read then finds the stream used, which must be a clear 400, not a 500."""
    client = world.web("owner")
    url = reverse(f"play:{action}", args=[world.match.pk, 0])
    response = client.post(url, {"tab": "x"})  # the test client's default: multipart
    assert response.status_code == 400
    assert response.json() == {
        "detail": "The request body must be JSON (Content-Type: application/json)."
    }
