"""The command line's site client without a site: addresses, credentials on disk, the zip of a
folder, ``Retry-After``, redirects (none to another site is followed), and the help of
every site command. The commands against a real site: tests/platform/test_cli_site.py."""

from __future__ import annotations

import json
import os
import stat
import threading
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from arena.cli import EXIT_BAD_INPUT, main
from arena.cli.site import (
    Credentials,
    Site,
    SiteError,
    load_credentials,
    normalise_url,
    retry_after,
    save_credentials,
)
from arena.cli.submit import zip_folder


@pytest.mark.parametrize(
    "argv",
    [["login"], ["logout"], ["submit"], ["bots"], ["matches"], ["replay", "fetch"]],
)
def test_help_of_every_site_command(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    assert exc.value.code == 0
    assert "usage: arena" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://arena.example.org/", "https://arena.example.org"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        (" https://example.org/arena/?x=1#top ", "https://example.org/arena"),
    ],
)
def test_site_addresses(given: str, kept: str) -> None:
    assert normalise_url(given) == kept


@pytest.mark.parametrize("given", ["arena.example.org", "ftp://example.org", "https://", ""])
def test_what_is_no_site_address(given: str) -> None:
    with pytest.raises(SiteError) as caught:
        normalise_url(given)
    assert caught.value.exit_code == EXIT_BAD_INPUT


def test_credentials_are_private_and_the_environment_overrides_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    folder = tmp_path / "meeple-arena"
    folder.mkdir(mode=0o755)
    (folder / "credentials.json").write_text("{}")
    os.chmod(folder / "credentials.json", 0o644)  # made by something else, readable by all
    assert load_credentials() is None
    path = save_credentials(Credentials("https://a.example", "secret-token", "alice"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert load_credentials() == Credentials("https://a.example", "secret-token", "alice")
    monkeypatch.setenv("ARENA_TOKEN", "ci-token")
    assert load_credentials() == Credentials("https://a.example", "ci-token", "alice")
    monkeypatch.setenv("ARENA_URL", "https://b.example/")
    assert load_credentials() == Credentials("https://b.example", "ci-token", "")


def test_a_folder_zips_to_the_same_bytes_without_caches(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    for name in ("main.py", "lib/util.py", "__pycache__/x.pyc", ".git/HEAD", "lib/.venv/x"):
        (bot / name).parent.mkdir(parents=True, exist_ok=True)
        (bot / name).write_text(name)
    first = zip_folder(bot)
    os.utime(bot / "main.py", (0, 0))  # times are not in the zip: the same bytes again
    assert zip_folder(bot) == first
    names = zipfile.ZipFile(BytesIO(first)).namelist()
    assert names == ["lib/util.py", "main.py"]
    (bot / "main.py").write_text("changed")
    assert zip_folder(bot) != first


def test_retry_after_in_seconds_or_as_a_date() -> None:
    assert retry_after("120") == 120
    assert retry_after(None) is None and retry_after("soon") is None
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=100), usegmt=True)
    wait = retry_after(later)
    assert wait is not None and 90 <= wait <= 100


class _Recorder(BaseHTTPRequestHandler):
    """Answers JSON for /api/..., or redirects every request to ``target`` when set; keeps the
    Authorization header of each request it saw."""

    target = ""
    seen: list[tuple[str, str | None]]

    def do_GET(self) -> None:
        self.seen.append((self.path, self.headers.get("Authorization")))
        if self.target:
            self.send_response(301)
            self.send_header("Location", self.target + self.path)
            self.end_headers()
            return
        body = json.dumps([{"slug": "trnd"}]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def _serve(target: str = "") -> tuple[ThreadingHTTPServer, list[tuple[str, str | None]]]:
    seen: list[tuple[str, str | None]] = []
    handler = type("Handler", (_Recorder,), {"target": target, "seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


@pytest.fixture
def moved_site() -> Iterator[tuple[str, str, list[tuple[str, str | None]]]]:
    """(old address, new address, what the new one saw): the old one redirects everything."""
    new, seen = _serve()
    new_url = f"http://127.0.0.1:{new.server_address[1]}"
    old, _ = _serve(target=new_url)
    try:
        yield f"http://127.0.0.1:{old.server_address[1]}", new_url, seen
    finally:
        for server in (old, new):
            server.shutdown()
            server.server_close()


def test_a_site_moved_to_another_port_is_not_followed(moved_site: Any) -> None:
    """Another port is another site (arena/cli/redirects.py; the other host:
    test_cli_login_redirects.py)."""
    old, new, seen = moved_site
    site = Site(old, "secret-token")
    with pytest.raises(SiteError) as caught:
        site.check()
    assert caught.value.exit_code == EXIT_BAD_INPUT
    assert f"redirects to another host ({new})" in str(caught.value)
    assert site.url == old and seen == []


class _Arena(BaseHTTPRequestHandler):
    """A site's API in two answers: the games, and (with the token ``good``) the caller's
    bots; any other token is refused as DRF refuses it."""

    def do_GET(self) -> None:
        if self.path.startswith("/api/games/"):
            self._json(200, [{"slug": "trnd"}])
        elif self.headers.get("Authorization") == "Token good":
            self._json(200, [])
        else:
            self._json(401, {"detail": "Invalid token."})

    def _json(self, status: int, answer: Any) -> None:
        body = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def fake_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Arena)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), err
    return lines[0]


def test_a_wrong_token_at_login_says_where_to_get_one(
    fake_site: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["login", fake_site, "--token", "typo"]) == EXIT_BAD_INPUT
    line = error_line(capsys)
    assert f"{fake_site} refused the token: not one of its tokens" in line
    assert "'Use the API' page" in line and "arena login" not in line  # not "run what you ran"
    assert not (tmp_path / "config" / "meeple-arena" / "credentials.json").exists()
    assert main(["login", fake_site, "--token", "good"]) == 0


def test_a_game_the_site_has_not_is_named_with_its_games(
    fake_site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("ARENA_URL", fake_site)
    monkeypatch.setenv("ARENA_TOKEN", "good")
    (tmp_path / "main.py").write_text("print()\n")
    code = main(["submit", "mine", str(tmp_path / "main.py"), "--game", "nosuch"])
    assert code == EXIT_BAD_INPUT
    assert error_line(capsys).endswith(f"{fake_site} has no game 'nosuch' (games: trnd)")
    # the lists too: not "you have no bots yet" or "no matches" for a mistyped game
    for command in ("bots", "matches"):
        assert main([command, "--game", "nosuch"]) == EXIT_BAD_INPUT
        assert error_line(capsys).endswith(f"{fake_site} has no game 'nosuch' (games: trnd)")
    assert main(["bots", "--game", "trnd"]) == 0
    assert "you have no bots" in capsys.readouterr().out


def test_https_to_a_plain_http_site_says_so(fake_site: str) -> None:
    tls = fake_site.replace("http://", "https://")
    with pytest.raises(SiteError) as caught:
        Site(tls).get("/api/games/")
    assert caught.value.exit_code == EXIT_BAD_INPUT
    assert str(caught.value) == f"cannot reach {tls}: it does not speak HTTPS (try {fake_site})"


def test_fetch_logged_out_names_both_ways(
    fake_site: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "fetch", "3"]) == EXIT_BAD_INPUT
    line = error_line(capsys)
    assert "run `arena login URL` first" in line and "--url URL" in line
