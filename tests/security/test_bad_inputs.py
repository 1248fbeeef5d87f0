"""Every bad input of issue 12 (and more in its spirit), as a table: each row is a request, the
status it must get, a piece of the message it must carry, and nothing may be stored."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.security.badfiles import GOOD_MAIN, REFUSED, zip_of
from tests.security.conftest import World, media_files, stored_counts

MAX_INT = (1 << 63) - 1


@dataclass
class Case:
    id: str
    role: str
    method: str
    path: str
    status: int
    message: str
    json: Any = None  # an API JSON body
    form: dict[str, Any] | None = None  # a web form body (urlencoded)
    web: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def tournament(**over: Any) -> dict[str, Any]:
    body = {
        "game": "trnd",
        "name": "T",
        "entrants": ["{version}", "{builtin}", "{builtin2}"],
        "players_per_match": 3,
    }
    body.update(over)
    return body


CASES = [
    # -- query filters: NUL bytes, non-ASCII digits, out-of-range numbers, unknown choices
    Case("bots-game-nul", "anonymous", "get", "/api/bots/?game=%00", 400, "Null characters"),
    Case("bots-owner-nul", "anonymous", "get", "/api/bots/?owner=%00", 400, "Null characters"),
    Case("bots-owner-long", "anonymous", "get", "/api/bots/?owner=" + "x" * 500, 400, "at most"),
    Case("matches-game-nul", "anonymous", "get", "/api/matches/?game=%00", 400, "Null char"),
    Case("matches-bot-sup2", "anonymous", "get", "/api/matches/?bot=%C2%B2", 400, "digits 0-9"),
    Case("matches-bot-arabic", "anonymous", "get", "/api/matches/?bot=%D9%A1", 400, "digits 0-9"),
    Case("matches-bot-letters", "anonymous", "get", "/api/matches/?bot=x", 400, "digits 0-9"),
    Case("matches-bot-huge", "anonymous", "get", "/api/matches/?bot=" + "9" * 30, 400, "digits"),
    Case("matches-bot-2^63", "anonymous", "get", f"/api/matches/?bot={MAX_INT + 1}", 400, "less"),
    Case("matches-bot-zero", "anonymous", "get", "/api/matches/?bot=0", 400, "greater"),
    Case("matches-status", "anonymous", "get", "/api/matches/?status=bogus", 400, "valid choice"),
    Case("page-matches-nul", "anonymous", "get", "/matches/?game=%00", 400, "Null char", web=True),
    Case("page-matches-sup2", "anonymous", "get", "/matches/?bot=%C2%B2", 400, "0-9", web=True),
    Case("page-matches-status", "anonymous", "get", "/matches/?status=x", 400, "choice", web=True),
    # No NUL byte in any query parameter reaches a view (foundation/params.py): searches included.
    Case(
        "page-tournament-new-nul",
        "organiser",
        "get",
        "/tournaments/new/?game=%00",
        400,
        "Null characters",
        web=True,
    ),
    Case("page-bots-q-nul", "anonymous", "get", "/bots/?q=a%00b", 400, "Null char", web=True),
    Case("page-bots-key-nul", "anonymous", "get", "/bots/?q%00=a", 400, "Null char", web=True),
    # ?page= is a page number in ASCII digits when given (DRF read "" and "١" as page 1)
    Case("api-page-empty", "anonymous", "get", "/api/bots/?page=", 404, "Invalid page"),
    Case("api-page-arabic", "anonymous", "get", "/api/bots/?page=%D9%A1", 404, "Invalid page"),
    Case("api-page-zero", "anonymous", "get", "/api/bots/?page=0", 404, "Invalid page"),
    Case("api-search-nul", "anonymous", "get", "/api/bots/?search=%00", 400, "Null char"),
    # Digits that str.isdigit() accepts and int() refuses, and numbers past a column: the
    # parameter counts as not given (foundation/params.py), never a 500.
    Case(
        "page-game-bot-sup2", "anonymous", "get", "/games/trnd/?bot=%C2%B2", 200, "TRND", web=True
    ),
    Case(
        "page-game-bot-huge",
        "anonymous",
        "get",
        f"/games/trnd/?bot={10**20}",
        200,
        "TRND",
        web=True,
    ),
    Case("play-new-bot-sup2", "owner", "get", "/play/new/?bot=%C2%B2", 200, "", web=True),
    Case("play-new-bot-huge", "owner", "get", f"/play/new/?bot={10**20}", 200, "", web=True),
    # ids of more than 18 digits match no URL (foundation/converters.py): never the database
    Case(
        "match-id-huge", "anonymous", "get", "/api/matches/99999999999999999999/", 404, "Not found"
    ),
    Case(
        "replay-id-huge",
        "anonymous",
        "get",
        "/api/matches/31800082540180931608576/replay/",
        404,
        "Not found",
    ),
    Case("bot-id-huge", "anonymous", "get", "/bots/99999999999999999999/", 404, "", web=True),
    # -- serializers: NUL bytes, lengths, unknown slugs
    Case("bot-game-nul", "owner", "post", "/api/bots/", 400, "Invalid", json={"game": "\x00"}),
    Case(
        "bot-name-nul",
        "owner",
        "post",
        "/api/bots/",
        400,
        "Null characters",
        json={"game": "trnd", "name": "a\x00b"},
    ),
    Case(
        "bot-name-long",
        "owner",
        "post",
        "/api/bots/",
        400,
        "no more than 60",
        json={"game": "trnd", "name": "n" * 61},
    ),
    Case(
        "bot-description-long",
        "owner",
        "post",
        "/api/bots/",
        400,
        "no more than 2000",
        json={"game": "trnd", "name": "n", "description": "d" * 2001},
    ),
    Case(
        "bot-description-2mib",
        "owner",
        "post",
        "/api/bots/",
        400,
        "requests are limited",
        json={"game": "trnd", "name": "n", "description": "d" * (2 << 20)},
    ),
    Case(
        "bot-unknown-game",
        "owner",
        "post",
        "/api/bots/",
        400,
        "does not exist",
        json={"game": "chess", "name": "n"},
    ),
    Case(
        "web-bot-description-long",
        "owner",
        "post",
        "/bots/new/",
        400,
        "at most 2000",
        form={"game": "{trnd_pk}", "name": "n", "description": "d" * 2001},
        web=True,
    ),
    Case(
        "web-bot-name-nul",
        "owner",
        "post",
        "/bots/new/",
        400,
        "Null characters",
        form={"game": "{trnd_pk}", "name": "a\x00"},
        web=True,
    ),
    Case(
        "web-signup-nul",
        "anonymous",
        "post",
        "/accounts/signup/",
        400,
        "Null characters",
        form={"username": "a\x00", "password1": "x", "password2": "x"},
        web=True,
    ),
    # A form's fields reach views that read request.POST by hand (a member's name, the game of
    # the play form): a NUL byte in any of them is refused before the view (PostgreSQL refuses
    # one in text: these were 500s), and "²" is no id (int() refuses what isdigit() accepts).
    Case(
        "web-member-remove-nul",
        "organiser",
        "post",
        "/tournaments/{draft}/members/",
        400,
        "Form fields: Null characters",
        form={"action": "remove", "username": "a\x00b"},
        web=True,
    ),
    Case(
        "web-member-add-nul",
        "organiser",
        "post",
        "/tournaments/{draft}/members/",
        400,
        "Form fields: Null characters",
        form={"action": "add", "username": "a\x00b"},
        web=True,
    ),
    Case(
        "web-play-game-nul",
        "owner",
        "post",
        "/play/new/",
        400,
        "Form fields: Null characters",
        form={"game": "tr\x00nd"},
        web=True,
    ),
    Case(
        "web-field-name-nul",
        "owner",
        "post",
        "/play/new/",
        400,
        "Form fields: Null characters",
        form={"game": "trnd", "seat_\x00": "you"},
        web=True,
    ),
    Case(
        "web-league-game-sup2",
        "organiser",
        "post",
        "/tournaments/leagues/new/",
        200,  # the form again, with its error, as for any invalid league
        "Select a valid choice",
        form={"game": "²", "name": "L"},
        web=True,
    ),
    # -- tournaments: options checked by the engine, integers bounded and ASCII
    Case(
        "t-unknown-option",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "unknown option",
        json=tournament(options={"nope": 1}),
    ),
    Case(
        "t-option-huge",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "at most 100000",
        json=tournament(options={"target_score": 10**30}),
    ),
    Case(
        "t-option-type",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "must be an integer",
        json=tournament(options={"target_score": "ten"}),
    ),
    Case(
        "t-max-matches-2^31",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "less than or equal",
        json=tournament(max_matches=2147483648),
    ),
    Case(
        "t-seed-2^63",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "less than or equal",
        json=tournament(seed=MAX_INT + 1),
    ),
    Case(
        "t-seed-arabic",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "valid integer",
        json=tournament(seed="\u0661"),
    ),
    Case(
        "t-players-huge",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "less than or equal",
        json=tournament(players_per_match=10**12),
    ),
    Case(
        "t-game-nul",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "Invalid",
        json=tournament(game="\x00"),
    ),
    Case(
        "t-name-nul",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "Null characters",
        json=tournament(name="a\x00"),
    ),
    Case(
        "t-entrant-huge",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "Invalid pk",
        json=tournament(entrants=["{version}", "{builtin}", 10**20]),
    ),
    Case(
        "t-entrant-text",
        "organiser",
        "post",
        "/api/tournaments/",
        400,
        "Incorrect type",
        json=tournament(entrants=["{version}", "{builtin}", "\x00"]),
    ),
    Case(
        "web-t-option-huge",
        "organiser",
        "post",
        "/tournaments/new/?game=trnd",
        400,
        "less than",
        form={
            "name": "T",
            "entrants": ["{version}", "{builtin}", "{builtin2}"],
            "players_per_match": "3",
            "games_per_pairing": "1",
            "opt_target_score": str(10**30),
            "opt_max_rounds": "5",
            "opt_scoring": "standard",
        },
        web=True,
    ),
    # -- authentication
    Case(
        "bad-token",
        "anonymous",
        "get",
        "/api/bots/",
        401,
        "Invalid token",
        extra={"HTTP_AUTHORIZATION": "Token not-a-real-token"},
    ),
    Case("anon-create", "anonymous", "post", "/api/bots/", 401, "not provided", json={}),
    Case(
        "token-nul",
        "anonymous",
        "post",
        "/api/auth/token/",
        400,
        "Null characters",
        json={"username": "a\x00", "password": "x"},
    ),
    # -- bodies: declared too large, never read
    Case(
        "declared-huge-json",
        "owner",
        "post",
        "/api/bots/",
        400,
        "requests are limited",
        json={"game": "trnd", "name": "n"},
        extra={"CONTENT_LENGTH": str(400 << 20)},
    ),
    Case(
        "content-length-junk",
        "owner",
        "post",
        "/api/bots/",
        400,
        "Content-Length",
        json={"game": "trnd", "name": "n"},
        extra={"CONTENT_LENGTH": "\u0661\u0662"},
    ),
]


def _fill(value: Any, ids: dict[str, Any]) -> Any:
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return ids[value[1:-1]]
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


def _text(response: Any) -> str:
    return html.unescape(response.content.decode("utf-8", "replace"))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_a_clear_4xx_and_stores_nothing(world: World, settings: Any, case: Case):
    ids = {**world.ids(), "trnd_pk": world.bot.game.pk}
    before, files = stored_counts(), media_files(settings)
    if case.web:
        client = world.web(case.role)
        if case.method == "get":
            response = client.get(case.path.format(**ids), **case.extra)
        else:
            response = client.post(case.path.format(**ids), _fill(case.form, ids), **case.extra)
    else:
        client = world.api(case.role)
        call = getattr(client, case.method)
        if case.json is None:
            response = call(case.path, **case.extra)
        else:
            response = call(
                case.path,
                data=json.dumps(_fill(case.json, ids)),
                content_type="application/json",
                **case.extra,
            )
    assert response.status_code == case.status, _text(response)[:500]
    assert case.message in _text(response), _text(response)[:800]
    if case.status == 401:
        assert response["WWW-Authenticate"].startswith("Token")
    assert stored_counts() == before
    assert media_files(settings) == files


# -- uploads: every refused file through the API and the page, same message, nothing stored


@pytest.mark.parametrize(("cid", "name", "data", "message"), REFUSED, ids=[r[0] for r in REFUSED])
@pytest.mark.parametrize("door", ["api", "web"])
def test_refused_upload(world: World, settings: Any, door: str, cid, name, data, message):
    before, files = stored_counts(), media_files(settings)
    upload = SimpleUploadedFile(name, data)
    if door == "api":
        response = world.api("owner").post(
            f"/api/bots/{world.bot.pk}/versions/", {"code": upload}, format="multipart"
        )
    else:
        response = world.web("owner").post(f"/bots/{world.bot.pk}/upload/", {"code": upload})
    assert response.status_code == 400, _text(response)[:500]
    assert message in _text(response)
    assert stored_counts() == before
    assert media_files(settings) == files


def test_web_new_bot_with_refused_file_stores_no_bot(world: World, settings: Any) -> None:
    before = stored_counts()
    response = world.web("owner").post(
        "/bots/new/",
        {
            "game": world.bot.game.pk,
            "name": "fresh",
            "code": SimpleUploadedFile("bot.zip", zip_of({"lib/main.py": GOOD_MAIN, "x": b""})),
        },
    )
    assert response.status_code == 400 and "no main.py" in _text(response)
    assert stored_counts() == before


class CountingInput:
    """A request body that counts how much of it the server read."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def read(self, size: int = -1) -> bytes:
        size = len(self.data) - self.pos if size is None or size < 0 else size
        chunk = self.data[self.pos : self.pos + size]
        self.pos += len(chunk)
        return chunk

    def readline(self, size: int = -1) -> bytes:  # pragma: no cover - multipart never asks
        return self.read(size)


def _multipart(data: bytes, name: str = "main.py") -> tuple[bytes, str]:
    boundary = "BoUnDaRy"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="code"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    return (
        head + data + f"\r\n--{boundary}--\r\n".encode(),
        f"multipart/form-data; boundary={boundary}",
    )


@pytest.mark.parametrize("door", ["api", "web"])
def test_upload_over_cap_stops_while_streaming(world: World, settings: Any, door: str) -> None:
    """A file past the cap is refused after about the cap's bytes were read, not all of it."""
    settings.ARENA_UPLOAD_MAX_BYTES = 100_000
    body, ctype = _multipart(b"#" * 160_000 + b"\n")  # within the header slack: must stream
    stream = CountingInput(body)
    path = (
        f"/api/bots/{world.bot.pk}/versions/" if door == "api" else f"/bots/{world.bot.pk}/upload/"
    )
    client = world.api("owner") if door == "api" else world.web("owner")
    before = stored_counts()
    response = client.generic(
        "POST",
        path,
        b"",
        content_type=ctype,
        **{"wsgi.input": stream, "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": ctype},
    )
    assert response.status_code == 400, _text(response)[:300]
    assert "bot files are limited to 98 KiB" in _text(response)
    # Django reads in the handlers' chunks (16 KiB): the cap, plus the chunks in flight.
    assert stream.pos <= 100_000 + 3 * 16 * 1024 < len(body)
    assert stored_counts() == before


@pytest.mark.parametrize("door", ["api", "web"])
def test_upload_declared_too_large_reads_nothing(world: World, settings: Any, door: str) -> None:
    body, ctype = _multipart(b"#" * 3_000_000)
    stream = CountingInput(body)
    path = (
        f"/api/bots/{world.bot.pk}/versions/" if door == "api" else f"/bots/{world.bot.pk}/upload/"
    )
    client = world.api("owner") if door == "api" else world.web("owner")
    response = client.generic(
        "POST",
        path,
        b"",
        content_type=ctype,
        **{"wsgi.input": stream, "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": ctype},
    )
    assert response.status_code == 400
    assert "limited to" in _text(response)
    assert stream.pos == 0


def test_upload_cap_from_the_handler_before_the_request_cap(world: World, settings: Any) -> None:
    """Under the request cap but over the upload cap (plus multipart room): the upload handler
    refuses it from Content-Length, before reading."""
    settings.ARENA_UPLOAD_MAX_BYTES = 100_000
    body, ctype = _multipart(b"#" * 1_000_000)
    stream = CountingInput(body)
    response = world.api("owner").generic(
        "POST",
        f"/api/bots/{world.bot.pk}/versions/",
        b"",
        content_type=ctype,
        **{"wsgi.input": stream, "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": ctype},
    )
    assert response.status_code == 400
    assert "The upload is 977 KiB; bot files are limited to 98 KiB." in _text(response)
    assert stream.pos == 0


def test_other_users_upload_is_refused_before_reading(world: World) -> None:
    body, ctype = _multipart(GOOD_MAIN)
    response = world.api("other").generic(
        "POST", f"/api/bots/{world.bot.pk}/versions/", body, content_type=ctype
    )
    assert response.status_code == 403
    assert "owner" in _text(response)
