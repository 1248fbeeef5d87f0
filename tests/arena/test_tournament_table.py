"""``arena tournament``'s table says what orders it and follows that order: points first (the
format's order, as on the site), never the OpenSkill ordinal over a bot with more points."""

from __future__ import annotations

import io

from rich.console import Console

from arena.cli.tournament import _standings_table
from arena.formats import FORMATS, FormatOptions, StandingRow
from arena.ratings.table import Standing, Standings
from arena.tournament import Tournament
from arena.tournament_legend import POINTS_NOTE, ordering_note


def _printed(t: Tournament) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(_standings_table(t))
    return out.getvalue()


def _tournament(fmt: str, rows: dict[str, StandingRow], ratings: list[Standing]) -> Tournament:
    return Tournament(
        game="trnd",
        bots=list(rows),
        players=3,
        schedule=[],
        outcomes=[],
        standings=Standings(rows=ratings),
        format=fmt,
        options=FormatOptions(players=3),
        rows=rows,
    )


def test_more_points_ranks_first_whatever_the_ordinal() -> None:
    # "steady" has the better OpenSkill ordinal (it heads the ratings table) but fewer points.
    rows = {
        "steady": StandingRow(bot="steady", seed=1, points=1.5, wins=1, matches=3),
        "winner": StandingRow(bot="winner", seed=2, points=2.0, wins=2, matches=3),
        "last": StandingRow(bot="last", seed=3, points=1.0, wins=0, matches=3),
    }
    ratings = [
        Standing(bot="steady", matches=3, wins=1, mu=30.0, sigma=2.0),
        Standing(bot="winner", matches=3, wins=2, mu=28.0, sigma=5.0),
        Standing(bot="last", matches=3, wins=0, mu=20.0, sigma=3.0),
    ]
    assert ratings[0].ordinal > ratings[1].ordinal
    text = _printed(_tournament("round-robin", rows, ratings))
    lines = [line for line in text.splitlines() if line.startswith("│")]
    assert [line.split("│")[2].strip() for line in lines] == ["winner", "steady", "last"]
    header = next(line for line in text.splitlines() if "points" in line)
    assert header.index("points") < header.index("Buchholz") < header.index("ordinal")
    flat = " ".join(text.split())
    assert "Ordered by points, then Buchholz" in flat and "for information" in flat
    assert " ".join(POINTS_NOTE.split()) in flat


def test_a_knockout_says_it_ranks_by_how_far_each_got() -> None:
    rows = {
        "champ": StandingRow(bot="champ", seed=2, points=1.0, wins=1, matches=2),
        "busy": StandingRow(
            bot="busy", seed=1, points=1.5, wins=1, matches=2, eliminated=True, eliminated_in=1
        ),
    }
    ratings = [Standing(bot="busy", matches=2, wins=1), Standing(bot="champ", matches=2, wins=1)]
    text = _printed(_tournament("knockout", rows, ratings))
    lines = [line for line in text.splitlines() if line.startswith("│")]
    assert [line.split("│")[2].strip() for line in lines] == ["champ", "busy"]
    assert "Ordered by how far each bot got" in " ".join(text.split())


def test_every_format_has_a_legend() -> None:
    for name, fmt in FORMATS.items():
        assert ordering_note(name).startswith(fmt.order_note)
