"""``arena login`` and every later command against a site that redirects to another host: the
redirect is refused with one line naming that host, and nothing (no password, no token, no
request at all) reaches it. 127.0.0.2 is another host on the loopback network. And the
credentials file is never written through a link planted at its path."""

from __future__ import annotations

import io
import json
import os
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from arena.cli import EXIT_BAD_INPUT, main
from arena.cli.redirects import may_follow
from arena.cli.site import Credentials, SiteError, credentials_path, save_credentials


@dataclass
class Seen:
    """What one server received: (method, path, Authorization, body) per request."""

    requests: list[tuple[str, str, str | None, bytes]] = field(default_factory=list)


def _handler(seen: Seen, redirect_to: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """With ``redirect_to``: redirects every request there (301 a GET, 307 a POST, which
        keeps the body). Without: a site's API that hands out a token for any password."""

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen.requests.append((self.command, self.path, self.headers.get("Authorization"), body))
            if redirect_to:
                self.send_response(307 if self.command == "POST" else 301)
                self.send_header("Location", redirect_to + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            answer: Any = {"token": "their-token"} if self.command == "POST" else []
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _answer

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def redirected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str, Seen]]:
    """(the address the user names, the other host's, what the other host received): the named
    site on 127.0.0.1 redirects everything to a working fake site on 127.0.0.2."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    other_seen = Seen()
    other = ThreadingHTTPServer(("127.0.0.2", 0), _handler(other_seen, ""))
    other_url = f"http://127.0.0.2:{other.server_address[1]}"
    named = ThreadingHTTPServer(("127.0.0.1", 0), _handler(Seen(), other_url))
    for server in (other, named):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{named.server_address[1]}", other_url, other_seen
    finally:
        for server in (other, named):
            server.shutdown()
            server.server_close()


def _error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), err
    return lines[0]


def test_login_with_a_password_sends_nothing_to_the_host_it_is_redirected_to(
    redirected: tuple[str, str, Seen],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    named, other, other_seen = redirected
    monkeypatch.setattr("sys.stdin", io.StringIO("hunter2\n"))
    code = main(["login", named, "--username", "alice", "--password-stdin"])
    assert code == EXIT_BAD_INPUT
    line = _error_line(capsys)
    assert f"redirects to another host ({other})" in line and "not followed" in line
    assert other_seen.requests == []  # not the password, not even the probe
    assert not credentials_path().exists()


def test_login_with_a_token_sends_nothing_to_the_host_it_is_redirected_to(
    redirected: tuple[str, str, Seen], capsys: pytest.CaptureFixture[str]
) -> None:
    named, other, other_seen = redirected
    assert main(["login", named, "--token", "my-token"]) == EXIT_BAD_INPUT
    assert other in _error_line(capsys)
    assert other_seen.requests == []
    assert not credentials_path().exists()


@pytest.mark.parametrize("argv", [["bots"], ["matches"], ["replay", "fetch", "3"]])
def test_a_later_command_sends_nothing_to_the_host_it_is_redirected_to(
    redirected: tuple[str, str, Seen], capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Logged in to the named site, which redirects elsewhere later on."""
    named, other, other_seen = redirected
    save_credentials(Credentials(named, "my-token", "alice"))
    assert main(argv) == EXIT_BAD_INPUT
    assert f"redirects to another host ({other})" in _error_line(capsys)
    assert other_seen.requests == []


@pytest.mark.parametrize(
    ("origin", "target", "followed"),
    [
        ("http://arena.example/api/games/", "https://arena.example/api/games/", True),
        ("http://arena.example:80/api/", "https://arena.example/api/", True),
        ("http://arena.example/api/", "https://arena.example:443/x/api/", True),
        ("http://127.0.0.1:8000/api/games", "http://127.0.0.1:8000/api/games/", True),
        ("https://arena.example/api/", "https://arena.example/prefix/api/", True),
        ("https://Arena.Example/api/", "https://arena.example/api/?page=2", True),
        ("https://arena.example/api/", "http://arena.example/api/", False),  # a downgrade
        ("http://arena.example:8000/api/", "https://arena.example:8443/api/", False),
        ("http://arena.example:8000/api/", "https://arena.example/api/", False),
        ("http://arena.example/api/", "https://arena.example:8443/api/", False),
        ("http://127.0.0.1:8000/api/", "http://127.0.0.1:8001/api/", False),
        ("https://arena.example/api/", "https://evil.example/api/", False),
        ("https://arena.example/api/", "https://arena.example.evil.example/api/", False),
        ("https://arena.example/api/", "https://user@evil.example/api/", False),
        ("https://arena.example/api/", "ftp://arena.example/api/", False),
        ("https://arena.example/api/", "https://arena.example:notaport/api/", False),
    ],
)
def test_which_redirects_are_followed(origin: str, target: str, followed: bool) -> None:
    assert may_follow(origin, target) is followed


def test_the_credentials_file_replaces_a_planted_link_and_leaves_its_target_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    victim = tmp_path / "victim.txt"
    victim.write_text("a file of the user's\n")
    os.chmod(victim, 0o644)
    path = credentials_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(victim)
    assert save_credentials(Credentials("https://a.example", "secret-token", "alice")) == path
    assert victim.read_text() == "a file of the user's\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
    info = path.lstat()
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert json.loads(path.read_text())["token"] == "secret-token"
    assert sorted(p.name for p in path.parent.iterdir()) == ["credentials.json"]  # no temp file


def test_the_credentials_folder_as_a_link_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "config").mkdir()
    credentials_path().parent.symlink_to(elsewhere)
    with pytest.raises(SiteError) as caught:
        save_credentials(Credentials("https://a.example", "secret-token", "alice"))
    assert caught.value.exit_code == EXIT_BAD_INPUT
    assert "not a folder of yours" in str(caught.value)
    assert list(elsewhere.iterdir()) == []
