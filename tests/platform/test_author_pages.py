"""The pages a bot author needs: each game's rules (from its RULES.md), the starter bot zip,
the protocol page, the API guide, the runtime on the upload pages, and the match page's
options table, replay download and seat view endpoint."""

from __future__ import annotations

import io
import json
import re
import zipfile
from html import unescape

import pytest
from bots.services import ensure_builtin_bots
from catalog.markdown import render_markdown
from matches.services import create_match, dispatch_match

from arena.newbot import example_act_message, starter_zip
from arena.protocol import DOC
from games.registry import rules_path, slugs
from sandbox.languages.python import RUNTIME


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize("slug", slugs())
def test_rules_page_renders_the_games_rules_md(client, games, slug: str) -> None:
    response = client.get(f"/games/{slug}/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    # the whole RULES.md, rendered by the one Markdown library, is on the page
    assert render_markdown(rules_path(slug).read_text()) in html
    # the real act message, built by the code from a seeded game
    example = re.search(r'<pre class="example" data-test="example-act">(.*?)</pre>', html, re.S)
    assert example and json.loads(unescape(example.group(1))) == example_act_message(slug)
    for name in games[slug].builtin_bots:
        assert f"builtin:{name}" in html
    for option in games[slug].options:
        assert f"<code>{option['name']}</code>" in html
    assert f'href="/games/{slug}/starter-bot.zip"' in html
    assert "Observation fields" in html and "Action shapes" in html


def test_rules_are_sanitised_markdown_not_raw_html() -> None:
    html = render_markdown('# T\n\n<img src=x onerror="alert(1)">\n\n[a](javascript:alert(1))\n')
    assert "<img" not in html and "&lt;img src=x" in html  # shown as text, never as markup
    assert 'href="javascript' not in html


def test_unknown_game_rules_are_a_404(client, games) -> None:
    assert client.get("/games/chess/rules/").status_code == 404
    assert client.get("/games/chess/starter-bot.zip").status_code == 404


def test_starter_bot_download_is_the_new_bot_zip(client, games) -> None:
    response = client.get("/games/tri-area/starter-bot.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert 'filename="tri-area-starter-bot.zip"' in response["Content-Disposition"]
    assert response.content == starter_zip("tri-area")
    assert sorted(zipfile.ZipFile(io.BytesIO(response.content)).namelist()) == [
        "README.md",
        "main.py",
    ]


@pytest.mark.parametrize("lang", ["cpp", "java", "rust", "go", "javascript", "python"])
def test_starter_bot_download_per_language(client, games, lang: str) -> None:
    html = client.get("/games/trnd/rules/").content.decode()
    if lang != "python":  # the default download is Python's
        assert f'href="/games/trnd/starter-bot.zip?lang={lang}"' in html
    response = client.get(f"/games/trnd/starter-bot.zip?lang={lang}")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert f'filename="trnd-starter-bot-{lang}.zip"' in response["Content-Disposition"]
    assert response.content == starter_zip("trnd", lang)


def test_starter_bot_in_an_unknown_language_is_a_400(client, games) -> None:
    response = client.get("/games/trnd/starter-bot.zip?lang=cobol")
    assert response.status_code == 400
    assert "unknown language 'cobol'; choose one of python" in unescape(response.content.decode())


def test_protocol_page_is_the_packaged_protocol_doc(client) -> None:
    html = client.get("/docs/protocol/").content.decode()
    assert render_markdown(DOC.read_text()) in html
    assert "Bot protocol, version 1" in _text(html)
    # ... and names every language an upload may be in, from sandbox/languages/
    for name in ("Python 3.11", "JavaScript", "Java 17", "C++20", "Rust", "Go 1.19"):
        assert name in _text(html)


def test_api_guide_has_token_steps_and_real_endpoints(client, games) -> None:
    text = _text(client.get("/docs/api/").content.decode())
    assert "curl -s -X POST http://testserver/api/auth/token/" in text
    assert "curl -s -X POST http://testserver/api/bots/ " in text
    assert "http://testserver/api/bots/42/versions/ " in text and "-F code=@main.py" in text
    assert "Authorization: Token $MEEPLE_TOKEN" in text
    assert "${{ secrets.MEEPLE_TOKEN }}" in text
    assert "/api/docs/" in text


def test_api_guide_upload_really_works(client, user, trnd) -> None:
    """The guide's three calls, made as it shows them, create a bot and upload a version."""
    token = client.post(
        "/api/auth/token/",
        {"username": "alice", "password": "pw-alice-123"},
        content_type="application/json",
    ).json()["token"]
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    bot = client.post(
        "/api/bots/", {"game": "trnd", "name": "ci-bot"}, content_type="application/json", **auth
    ).json()
    main_py = io.BytesIO(b"print('hi')\n")
    main_py.name = "main.py"
    version = client.post(f"/api/bots/{bot['id']}/versions/", {"code": main_py}, **auth)
    assert version.status_code == 201, version.content
    assert version.json()["number"] == 1


def test_upload_pages_name_the_runtime(client, user, user_bot) -> None:
    client.force_login(user)
    for url in ("/bots/new/", f"/bots/{user_bot.pk}/upload/"):
        text = _text(client.get(url).content.decode())
        assert RUNTIME in text, url
    assert "Python 3.11" in RUNTIME and "numpy" in RUNTIME


def test_a_builtin_versions_size_and_hash_read_as_none(client, trnd) -> None:
    """A built-in has no uploaded file: a dash, not an empty code box."""
    greedy = next(b for b in ensure_builtin_bots(trnd) if b.name == "greedy")
    row = client.get(f"/bots/{greedy.pk}/").content.decode().split("<td>v1", 1)[1]
    row = row.split("</tr>", 1)[0]
    assert "<code></code>" not in row and "no uploaded file" in row


@pytest.fixture
def tri_match(games):
    versions = [b.latest_version() for b in ensure_builtin_bots(games["tri-area"])]
    match = create_match(
        game=games["tri-area"], versions=versions, seed=4, options={"extra_needs_top": False}
    )
    return dispatch_match(match)


def test_match_page_shows_options_as_a_table_and_offers_the_replay(client, tri_match) -> None:
    html = client.get(f"/matches/{tri_match.pk}/").content.decode()
    assert "{'" not in html and "': " not in html  # no Python dict
    assert '<table class="options compact">' in html
    assert '<th scope="row"><code>extra_needs_top</code></th><td><code>false</code></td>' in html
    assert f'href="/matches/{tri_match.pk}/replay.json" download' in html
    assert '<script src="/static/arena_viewer/replay.js" defer></script>' in html
    assert "<script>" not in html and " onclick=" not in html  # nothing inline (CSP)
    download = client.get(f"/matches/{tri_match.pk}/replay.json")
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    assert json.loads(download.content) == tri_match.replay
    assert client.get("/matches/999999/replay.json").status_code == 404


def test_step_with_a_seat_returns_that_seats_view(client, tri_match) -> None:
    url = f"/matches/{tri_match.pk}/steps/2.json"
    view = client.get(url + "?seat=1").json()["seat_view"]
    assert view["seat"] == 1 and view["observation"]["seat"] == 1
    assert client.get(url).json()["seat_view"] is None
    bad = client.get(url + "?seat=x")
    assert bad.status_code == 400 and "seat must be a seat number" in bad.json()["error"]
    missing = client.get(url + "?seat=7")
    assert missing.status_code == 404 and "Seat 7 is not a seat" in missing.json()["error"]
