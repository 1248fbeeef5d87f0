"""``manage.py demo``: distinct seeds per game's tournament, the URL it really serves on."""

from __future__ import annotations

from typing import Any

import pytest
from competitions.management.commands import demo
from competitions.models import Tournament
from django.core.management import call_command
from django.core.management.base import CommandError
from matches.models import Match


def test_each_games_tournament_gets_its_own_seeds(db, capsys) -> None:
    call_command("demo", "--games", "manhattan-traffiq", "trishaw-frenzy", "--matches", "3")
    tournaments = list(Tournament.objects.all())
    assert len({t.seed for t in tournaments}) == 2
    # within a tournament, seat rotations may replay a deal on purpose (shared deals); across
    # the games' tournaments no match seed repeats (they once all started from the same one)
    by_tournament = [
        set(Match.objects.filter(competition_link__tournament=t).values_list("seed", flat=True))
        for t in tournaments
    ]
    assert all(by_tournament) and not by_tournament[0] & by_tournament[1]
    assert {t.seed for t in tournaments} == {
        demo.game_seed(1, "manhattan-traffiq"),
        demo.game_seed(1, "trishaw-frenzy"),
    }


def test_seeds_differ_per_game_and_per_run() -> None:
    from games.registry import slugs

    assert len({demo.game_seed(1, s) for s in slugs()}) == len(slugs())
    assert demo.game_seed(1, "trnd") != demo.game_seed(2, "trnd")
    assert demo.game_seed(1, "trnd") == demo.game_seed(1, "trnd")


@pytest.mark.parametrize(
    ("value", "address", "url"),
    [
        ("127.0.0.1:8000", "127.0.0.1:8000", "http://127.0.0.1:8000/"),
        ("8001", "127.0.0.1:8001", "http://127.0.0.1:8001/"),
        ("0.0.0.0:9000", "0.0.0.0:9000", "http://127.0.0.1:9000/"),
        ("[::1]:8002", "[::1]:8002", "http://[::1]:8002/"),
    ],
)
def test_serve_address(value: str, address: str, url: str) -> None:
    assert demo.serve_address(value) == (address, url)


@pytest.mark.parametrize("value", ["localhost", "127.0.0.1:http", "99999"])
def test_bad_serve_address_is_a_clear_error(value: str) -> None:
    with pytest.raises(CommandError, match=r"--serve wants \[ADDR:\]PORT"):
        demo.serve_address(value)


def test_serve_prints_the_port_it_serves_on(db, capsys, monkeypatch) -> None:
    served: list[Any] = []
    real = demo.call_command

    def call(name: str, *args: Any, **kwargs: Any) -> None:
        if name == "runserver":  # the real server would block the test
            served.append(args)
            return
        real(name, *args, **kwargs)

    monkeypatch.setattr(demo, "call_command", call)
    call_command("demo", "--games", "manhattan-traffiq", "--matches", "1", "--serve", "8123")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out and "8000" not in out.split("Done.")[-1]
    assert served == [("127.0.0.1:8123",)]


def test_the_port_option_is_in_the_help(capsys) -> None:
    with pytest.raises(SystemExit):
        call_command("demo", "--help")
    text = capsys.readouterr().out
    assert "--serve [[ADDR:]PORT]" in text and "--serve 8001" in text
