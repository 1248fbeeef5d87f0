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


def _played(t: Tournament) -> dict[int, int]:
    """Matches each entrant of ``t`` sat in (0 for one that never played)."""
    played = dict.fromkeys(t.entrants.values_list("pk", flat=True), 0)
    for m in Match.objects.filter(competition_link__tournament=t).prefetch_related("seats"):
        for version in {s.bot_version_id for s in m.seats.all()}:
            played[version] += 1
    return played


def test_every_bot_of_a_demo_plays_as_many_matches(db, capsys) -> None:
    call_command("demo", "--games", "trnd", "tri-area", "--matches", "6")
    out = " ".join(capsys.readouterr().out.split())
    by_game = {t.game.slug: t for t in Tournament.objects.all()}
    # trnd seats 3 to 5: 3 bots fit a whole round robin in 6 matches (4 would take 12).
    assert _played(by_game["trnd"]) == dict.fromkeys(_played(by_game["trnd"]), 3)
    assert len(_played(by_game["trnd"])) == 3
    # tri-area at 2 seats, 2 games per pair: 3 bots, 6 matches, 4 each.
    assert sorted(_played(by_game["tri-area"]).values()) == [4, 4, 4]
    assert "Every bot played 3 matches: the whole round robin of 3 bots." in out
    assert "Every bot played 4 matches: the whole round robin of 3 bots." in out
    # Why the other bots of the full field sat out, and how to field them.
    assert "2 more bots would make it 30 matches: run with --matches 30 to field all 5." in out
    starter = [t.entrants.filter(bot__name="starter").exists() for t in by_game.values()]
    assert starter == [True, True]  # the program bot is kept before the numbered copies
    assert "Ordered by points, then Buchholz" in out


def test_a_budget_below_one_table_still_plays_every_bot_alike(db, capsys) -> None:
    call_command("demo", "--games", "trnd", "--matches", "2", "--no-program-bot")
    out = " ".join(capsys.readouterr().out.split())
    t = Tournament.objects.get()
    assert sorted(_played(t).values()) == [2, 2, 2]
    assert "Every bot played 2 matches (one table of 3; --matches 2 cut its 3 matches)." in out


def test_an_uneven_cut_says_why_and_how_to_even_it(db, trnd) -> None:
    from bots.services import system_user
    from competitions.tournaments.services import create_tournament, start_tournament

    entrants = demo.demo_entrants(trnd, 4)  # five bots, tables of 3
    t = create_tournament(
        organiser=system_user(),
        game=trnd,
        name="Cut",
        entrants=entrants,
        players_per_match=3,
        games_per_pairing=3,
        seed=1,
        max_matches=4,
    )
    start_tournament(t)
    field = demo.DemoField(entrants=entrants, left_out=0, wanted=5)
    note = demo.field_note(t, field, 3, 4)
    played = sorted(_played(t).values())
    assert played[0] != played[-1]
    assert note == (
        f"Bots played {played[0]} to {played[-1]} matches: --matches 4 cut the round robin "
        "of 30; run with --matches 30 for an even table."
    )
