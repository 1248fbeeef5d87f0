"""The `arena` command line against a real site: pytest-django's live server answers over HTTP,
and the upload's check and qualification match run on the eager worker path the platform's
tests use (tests/workers covers the same chain through Redis and a worker process).

Every command goes through ``arena.cli.main`` with a temporary ``XDG_CONFIG_HOME``."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import socket
import stat
import threading
import zipfile
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from bots.models import Bot, BotVersion, VersionStatus
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from matches.models import MatchKind
from rest_framework.test import APIClient

from arena.cli import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK, EXIT_SYSTEM, main
from arena.cli.site import Site, SiteError, Upload
from tests.site_fixtures import BOT_SOURCE

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-alice-Zx81!"
#: Plays the first legal action and says so on stderr at every decision.
LOGGING_SOURCE = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        sys.stderr.write(f"thinking about turn {msg['turn']}\\n")
        sys.stderr.flush()
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""
CRASH_SOURCE = b"""import sys
sys.stderr.write("secret-trace: boom on line one\\n")
raise SystemExit(3)
"""


@pytest.fixture(autouse=True)
def _site_settings(settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True  # this test site's operator allows it
    settings.ARENA_LADDER_BUDGET = 2
    settings.ARENA_LADDER_PLACEMENT = 2
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("arena.cli.submit.POLL_S", 0.2)


@pytest.fixture
def alice(db: None) -> Any:
    return get_user_model().objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def arena(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``arena(*argv)`` -> (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return run


def one_error(err: str) -> str:
    """The single ``arena: error:`` line of a failed command."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), err
    return lines[0]


@pytest.fixture
def logged_in(live_server: Any, alice: Any, arena: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    code, out, _ = arena("login", live_server.url, "-u", "alice", "--password-stdin")
    assert code == EXIT_OK, out
    return str(live_server.url)


def test_login_stores_a_private_token_and_logout_forgets_it(
    live_server: Any, alice: Any, arena: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("wrong password\n"))
    code, out, err = arena("login", live_server.url + "/", "-u", "alice", "--password-stdin")
    assert code == EXIT_BAD_INPUT
    assert "Unable to log in with provided credentials" in one_error(err)
    credentials = tmp_path / "config" / "meeple-arena" / "credentials.json"
    assert not credentials.exists()

    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    code, out, err = arena("login", live_server.url + "/", "-u", "alice", "--password-stdin")
    assert code == EXIT_OK, err
    from rest_framework.authtoken.models import Token

    token = Token.objects.get(user=alice).key
    assert token not in out + err
    assert stat.S_IMODE(credentials.stat().st_mode) == 0o600
    assert stat.S_IMODE(credentials.parent.stat().st_mode) == 0o700
    stored = json.loads(credentials.read_text())
    assert stored == {"url": live_server.url, "token": token, "username": "alice"}

    code, out, _ = arena("bots")
    assert code == EXIT_OK and "you have no bots" in out
    code, out, _ = arena("logout")
    assert code == EXIT_OK and not credentials.exists()
    code, _, err = arena("bots")
    assert code == EXIT_BAD_INPUT and "not logged in" in one_error(err)

    # A token from the "Use the API" page is checked before it is stored.
    code, _, err = arena("login", live_server.url, "--token", "0" * 40)
    assert code == EXIT_BAD_INPUT and "refused the token" in one_error(err)
    assert not credentials.exists()
    code, out, err = arena("login", live_server.url, "--token", token)
    assert code == EXIT_OK and token not in out + err
    assert json.loads(credentials.read_text())["token"] == token


def test_submit_qualifies_then_bots_matches_and_replay_fetch(
    logged_in: str, builtin_versions: Any, arena: Any, rounds: Any, tmp_path: Path
) -> None:
    (tmp_path / "main.py").write_bytes(LOGGING_SOURCE)
    code, _, err = arena("submit", "first", "main.py")
    assert code == EXIT_BAD_INPUT and "add --game GAME to create it" in one_error(err)
    assert "trnd" in err

    code, out, err = arena("submit", "first", "main.py", "--game", "trnd")
    assert code == EXIT_OK, out + err
    assert "created bot 'first' for trnd" in err  # a note, never in --json's output
    assert "uploaded first v1 (trnd, python" in out
    assert "first v1 qualified" in out
    bot = Bot.objects.get(name="first", owner__username="alice")
    assert bot.versions.get().status == VersionStatus.ACTIVE

    # The same bytes again make no version: refused, and said so.
    code, _, err = arena("submit", "first", "main.py")
    assert code == EXIT_BAD_INPUT and "identical to v1" in one_error(err)

    code, out, _ = arena("bots", "--json")
    assert code == EXIT_OK
    [row] = json.loads(out)
    assert (row["name"], row["game"], row["latest_version"]) == ("first", "trnd", 1)
    assert row["latest_status"] == "active"
    code, out, _ = arena("bots")
    assert code == EXIT_OK and "first" in out and "active" in out

    rounds(bot.game, 3)  # the matchmaker places the newcomer in rated ladder matches
    code, out, _ = arena("matches", "--json")
    assert code == EXIT_OK
    rows = json.loads(out)
    ladder = set(
        bot.versions.get()
        .seats.filter(match__kind=MatchKind.LADDER)
        .values_list("match", flat=True)
    )
    assert len(ladder) >= 2 and {r["match_id"] for r in rows} == ladder
    for r in rows:
        assert r["bot"] == "first" and r["kind"] == "ladder"
        assert r["elo_change"] == round(r["elo_after"] - r["elo_before"], 2)
        assert len(r["opponents"]) == r["players"] - 1 >= 2
    code, out, _ = arena("matches", "--bot", "first", "--lost", "--limit", "50", "--json")
    assert code == EXIT_OK
    assert json.loads(out) == [r for r in rows if r["rank"] > 1]
    code, out, _ = arena("matches", "--limit", "1")
    assert code == EXIT_OK and str(rows[0]["match_id"]) in out and "first v1" in out
    code, out, _ = arena("matches", "--kind", "qualification", "--json")
    assert [r["kind"] for r in json.loads(out)] == ["qualification"]

    # The replay, with the logs of this user's seat only; it verifies as a local one does.
    match_id, seat = str(rows[0]["match_id"]), rows[0]["seat"]
    code, out, _ = arena("replay", "fetch", match_id)
    assert code == EXIT_OK and f"wrote match-{match_id}.json (trnd" in out
    assert f"logs of seat {seat})" in out
    doc = json.loads((tmp_path / f"match-{match_id}.json").read_text())
    assert [bool(text) for text in doc["logs"]] == [i == seat for i in range(len(doc["seats"]))]
    start, end = doc["log_marks"][seat][0][1:]
    assert doc["logs"][seat][start:end].startswith("thinking about turn ")
    code, out, _ = arena("replay", "verify", f"match-{match_id}.json")
    assert code == EXIT_OK and "ok (trnd" in out
    # Logged out, the same replay is public, without anyone's logs.
    code, _, _ = arena("logout")
    code, out, _ = arena("replay", "fetch", match_id, "-o", "public.json", "--url", logged_in)
    assert code == EXIT_OK and "; no logs)" in out
    public = json.loads((tmp_path / "public.json").read_text())
    assert "logs" not in public and public["decisions"] == doc["decisions"]


def test_submit_a_failing_bot_prints_the_reason_and_its_stderr(
    logged_in: str, builtin_versions: Any, arena: Any, tmp_path: Path
) -> None:
    (tmp_path / "crash.py").write_bytes(CRASH_SOURCE)
    code, out, _ = arena("submit", "crasher", "crash.py", "--game", "trnd")
    assert code == EXIT_CHECK_FAILED
    assert "crasher v1 failed: " in out and "Crashed" in out
    assert "secret-trace: boom on line one" in out


def test_submit_a_folder_zipped_and_no_wait(
    logged_in: str, builtin_versions: Any, arena: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "mybot"
    (folder / "lib").mkdir(parents=True)
    (folder / "__pycache__").mkdir()
    (folder / "main.py").write_bytes(b"from lib.moves import first\n" + BOT_SOURCE)
    (folder / "lib" / "__init__.py").write_text("")
    (folder / "lib" / "moves.py").write_text("def first():\n    return 0\n")
    (folder / "__pycache__" / "junk.pyc").write_bytes(b"\0")
    code, out, err = arena("submit", "folded", str(folder), "--game", "trnd", "--no-wait")
    assert code == EXIT_OK, err
    assert "uploaded folded v1" in out and "qualified" not in out
    version = BotVersion.objects.get(bot__name="folded")
    with zipfile.ZipFile(version.code.open()) as zf:
        assert sorted(zf.namelist()) == ["lib/__init__.py", "lib/moves.py", "main.py"]
    # Zipped again, the unchanged folder is the same bytes: the same version.
    code, _, err = arena("submit", "folded", str(folder), "--no-wait")
    assert code == EXIT_BAD_INPUT and "identical to v1" in err


def test_upload_rate_limit_says_when_to_retry(
    logged_in: str, builtin_versions: Any, arena: Any, settings: Any, tmp_path: Path
) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "uploads": "1/hour"},
    }
    (tmp_path / "main.py").write_bytes(BOT_SOURCE)
    code, _, _ = arena("submit", "limited", "main.py", "--game", "trnd", "--no-wait")
    assert code == EXIT_OK
    (tmp_path / "main.py").write_bytes(BOT_SOURCE + b"# v2\n")
    code, _, err = arena("submit", "limited", "main.py", "--no-wait")
    line = one_error(err)
    assert code == EXIT_SYSTEM and "limits requests" in line
    seconds = int(line.split("retry in ")[1].split(" s")[0])
    assert 0 < seconds <= 3600


def test_site_errors_are_one_line(
    live_server: Any, alice: Any, arena: Any, monkeypatch: pytest.MonkeyPatch, trnd: Any
) -> None:
    # Not an address; a site that is not Meeple Arena's; nothing listening.
    code, _, err = arena("login", "arena.example.org", "--token", "x")
    assert code == EXIT_BAD_INPUT and "not a site's address" in one_error(err)
    code, _, err = arena("login", live_server.url + "/elsewhere", "-u", "alice")
    assert code == EXIT_BAD_INPUT and "does not look like a Meeple Arena site" in one_error(err)
    code, _, err = arena("login", live_server.url, "-u", "alice")  # stdin is no terminal
    assert code == EXIT_BAD_INPUT and "use --password-stdin or --token" in one_error(err)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    code, _, err = arena("login", closed, "-u", "alice", "--password-stdin")
    assert code == EXIT_SYSTEM and f"cannot reach {closed}" in one_error(err)

    # A token the site does not know (from the environment, as in CI).
    monkeypatch.setenv("ARENA_URL", live_server.url)
    monkeypatch.setenv("ARENA_TOKEN", "f" * 40)
    code, _, err = arena("bots")
    assert code == EXIT_BAD_INPUT
    assert f"refused the token (Invalid token.): run `arena login {live_server.url}`" in err
    assert "f" * 40 not in err

    # An unknown match, anonymously: replays are public.
    monkeypatch.delenv("ARENA_TOKEN")
    code, _, err = arena("replay", "fetch", "987654")
    assert code == EXIT_BAD_INPUT and "has no match 987654" in one_error(err)
    code, _, err = arena("replay", "fetch", "12x")
    assert code == EXIT_BAD_INPUT and "a match id is a positive number" in one_error(err)


def test_forbidden_is_one_line(live_server: Any, alice: Any, trnd: Any) -> None:
    """Another user's bot: the API's 403 reason, and the hint to log in as its owner."""
    from rest_framework.authtoken.models import Token

    bob = get_user_model().objects.create_user("bob", password="pw-bob-Zx81!")
    bobs = Bot.objects.create(owner=bob, game=trnd, name="bobs")
    site = Site(live_server.url, Token.objects.create(user=alice).key)
    with pytest.raises(SiteError) as caught:
        site.call(
            "POST", f"/api/bots/{bobs.pk}/versions/", upload=Upload("code", "main.py", BOT_SOURCE)
        )
    assert caught.value.status == 403 and caught.value.exit_code == EXIT_BAD_INPUT
    assert "Only the bot's owner may upload versions." in str(caught.value)
    assert "arena login" in str(caught.value)


@pytest.fixture
def failing_proxy() -> Iterator[str]:
    """A reverse proxy whose site is down: every request answers 502 with a page."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<html>502 Bad Gateway</html>"
            self.send_response(502)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_server_error_is_one_line(
    failing_proxy: str, arena: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_URL", failing_proxy)
    monkeypatch.setenv("ARENA_TOKEN", "t" * 40)
    code, _, err = arena("matches")
    line = one_error(err)
    assert code == EXIT_SYSTEM
    assert f"{failing_proxy} failed (HTTP 502) on GET /api/bots/; try again later" in line


# -- a re-run plays the author's own recorded bots on (issue 21, item 4) ---------------------


@pytest.fixture
def bob(db: None) -> Any:
    return get_user_model().objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def starter(tmp_path: Path, arena: Any) -> bytes:
    """The Python starter bot's code."""
    code, _, err = arena("new-bot", "trnd", str(tmp_path / "starter"))
    assert code == EXIT_OK, err
    return (tmp_path / "starter" / "main.py").read_bytes()


@pytest.fixture
def version(alice: Any, games: Any, starter: bytes) -> BotVersion:
    bot = Bot.objects.create(owner=alice, game=games["trnd"], name="alices")
    v = BotVersion(bot=bot, number=1, status=VersionStatus.ACTIVE, language="python")
    v.sha256 = hashlib.sha256(starter).hexdigest()
    v.code.save("main.py", ContentFile(starter), save=False)
    v.save()
    return v


def test_the_code_goes_back_to_its_owner_alone(
    version: BotVersion, bob: Any, builtin_versions: list[BotVersion], starter: bytes
) -> None:
    url = f"/api/versions/{version.pk}/code/"
    owner = APIClient()
    owner.force_authenticate(version.bot.owner)
    answer = owner.get(url)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert base64.b64decode(body["code_base64"]) == starter
    assert body["sha256"] == version.sha256 and body["suffix"] == ".py"
    assert (body["version"], body["bot"], body["language"]) == (version.pk, "alices", "python")
    assert "no-store" in answer["Cache-Control"]

    stranger = APIClient()
    stranger.force_authenticate(bob)
    for asked in (
        url,
        f"/api/versions/{builtin_versions[0].pk}/code/",
        "/api/versions/999999/code/",
    ):
        got = stranger.get(asked)
        assert got.status_code == 404 and "code_base64" not in got.json()
    assert APIClient().get(url).status_code in (401, 403)
    staff = get_user_model().objects.create_user("staff", is_staff=True, is_superuser=True)
    stranger.force_authenticate(staff)
    assert stranger.get(url).status_code == 404  # staff run bots; they do not read them


def _replay_with_version(tmp_path: Path, arena: Any, version: BotVersion) -> Path:
    """A local match of the starter against two built-ins, its seat 0 then named as the site
    names an uploaded version (``version:<id>``)."""
    replay = tmp_path / "m.json"
    code, _, err = arena(
        "play", "trnd", str(tmp_path / "starter"), "builtin:random", "builtin:random",
        "--sandbox", "process", "--option", "max_rounds=1", "--seed", "5", "--replay", str(replay),
    )  # fmt: skip
    assert code == EXIT_OK, err
    doc = json.loads(replay.read_text())
    doc["seats"][0]["bot"] = doc["seats"][0]["name"] = f"version:{version.pk}"
    replay.write_text(json.dumps(doc))
    return replay


def _rerun(arena: Any, replay: Path) -> tuple[dict[str, Any], str]:
    code, out, err = arena(
        "play", "--from-replay", str(replay), "--at", "0", "--seat", "1", "builtin:greedy",
        "--sandbox", "process", "--json",
    )  # fmt: skip
    assert code == EXIT_OK, err
    return json.loads(out), err


def _login(arena: Any, url: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    code, _, err = arena("login", url, "-u", name, "--password-stdin")
    assert code == EXIT_OK, err


def test_a_rerun_plays_the_callers_own_recorded_bot_and_no_one_elses(
    live_server: Any,
    version: BotVersion,
    bob: Any,
    arena: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replay = _replay_with_version(tmp_path, arena, version)
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))

    _login(arena, live_server.url, "alice", monkeypatch)
    result, err = _rerun(arena, replay)
    assert result["from_replay"]["diverged_at"] is not None, result["from_replay"]
    fetched = tmp_path / "cache" / f"{version.sha256}.py"
    assert result["seats"][0]["bot"] == str(fetched), result["seats"][0]
    assert result["seats"][0]["status"] == "ok" and "version:" not in err
    assert fetched.read_bytes() == version.code.read()

    _login(arena, live_server.url, "bob", monkeypatch)
    result, err = _rerun(arena, replay)
    assert result["seats"][0]["bot"].startswith("builtin:"), result["seats"][0]
    assert f"seat 0 (version:{version.pk}: not yours on {live_server.url}) plays builtin:" in err
