"""Nobody reads another user's bot logs (issue 21), through every door a replay leaves by: the
``arena`` command line against a live site (``arena replay fetch`` logged in as each user, and
anonymously), the match page that holds the viewer, and the viewer's step JSON. One real match
of two users' uploaded bots, each writing its own secret to stderr at every decision; a third
user owns nothing in it. The API replay, the download and ``logs.json`` are checked role by role
in tests/matches/test_match_logs.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from django.test import Client
from matches.models import Match, MatchStatus
from rest_framework.authtoken.models import Token

from arena.cli import EXIT_OK, main
from tests.matches.test_match_logs import LOGGING_BOT, SECRETS

pytestmark = pytest.mark.django_db(transaction=True)

#: Who reads which seat's secret: alice owns seat 0, bob seat 1, carol nothing.
READS = {"alice": {0}, "bob": {1}, "carol": set(), "anonymous": set()}


@pytest.fixture
def match(settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Match:
    from bots.services import create_bot, upload_version
    from matches.services import create_match, dispatch_match

    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for key in ("ARENA_URL", "ARENA_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    game = next(g for g in sync_games() if g.slug == "trishaw-frenzy")
    make = get_user_model().objects.create_user
    versions = [
        upload_version(
            bot=create_bot(owner=make(name, password=f"pw-{name}-123"), game=game, name=name),
            filename="main.py",
            data=(LOGGING_BOT % secret).encode(),
        )
        for name, secret in zip(("alice", "bob"), SECRETS, strict=True)
    ]
    make("carol", password="pw-carol-123")
    played = dispatch_match(
        create_match(game=game, versions=versions, seed=5, time_control={"move_ms": 2000})
    )
    assert played.status == MatchStatus.FINISHED, played.error
    return played


def secrets_in(text: str) -> set[int]:
    return {seat for seat, secret in enumerate(SECRETS) if secret in text}


@pytest.fixture
def arena(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    def run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_replay_fetch_brings_each_user_their_own_logs_only(
    match: Match, live_server: Any, arena: Any, tmp_path: Path
) -> None:
    for role, seats in READS.items():
        file = tmp_path / f"{role}.json"
        if role == "anonymous":
            arena("logout")
            code, out, err = arena(
                "replay", "fetch", str(match.pk), "-o", str(file), "--url", live_server.url
            )
        else:
            user = get_user_model().objects.get(username=role)
            token = Token.objects.get_or_create(user=user)[0].key
            code, _, err = arena("login", live_server.url, "--token", token)
            assert code == EXIT_OK, err
            code, out, err = arena("replay", "fetch", str(match.pk), "-o", str(file))
        assert code == EXIT_OK, (role, err)
        text = file.read_text(encoding="utf-8")
        assert secrets_in(text) == seats, role
        doc = json.loads(text)
        if seats:
            assert f"logs of seat {min(seats)})" in out, role
            assert [bool(log) for log in doc["logs"]] == [i in seats for i in range(2)], role
            assert [bool(m) for m in doc["log_marks"]] == [i in seats for i in range(2)], role
        else:
            assert "logs" not in doc and "log_marks" not in doc, role
            assert "; no logs)" in out, role


def test_the_viewer_page_and_its_steps_show_no_one_elses_logs(match: Match) -> None:
    total = len(match.replay["decisions"])
    for role, seats in READS.items():
        client = Client()
        if role != "anonymous":
            client.force_login(get_user_model().objects.get(username=role))
        page = client.get(f"/matches/{match.pk}/")
        assert page.status_code == 200, role
        # the owner's own stderr is on the page (under the seat, and through logs.json)
        assert secrets_in(page.content.decode()) == seats, role
        # a step is the public replay drawn: no one's logs, even for the owner of a seat
        for n in (0, 1, total // 2, total):
            for query in ("", "?seat=0", "?seat=1"):
                step = client.get(f"/matches/{match.pk}/steps/{n}.json{query}")
                assert step.status_code == 200, (role, n, query)
                assert secrets_in(step.content.decode()) == set(), (role, n, query)
