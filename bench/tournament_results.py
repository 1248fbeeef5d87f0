"""What publishing a tournament's results costs at the largest tournaments the site allows
(``MAX_TOURNAMENT_MATCHES``): computing the head-to-head records and tie-breaks from the
matches, the page's part (the round robin's crosstable drawn, or the knockout's bracket SVG),
and the exports (CSV and the JSON crosstable). Random results, no database; CPU ms of one
process, the best of ``--repeat`` runs. The site computes these once per change of a
tournament and caches them (competitions/tournaments/results/data.py).

    python bench/tournament_results.py [--repeat 5] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")

import django  # noqa: E402

django.setup()

from competitions.tournaments.results.export import standings_csv  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402

from arena.formats import (  # noqa: E402
    FormatOptions,
    Result,
    new_standings,
    next_round,
    ranking,
    record_round,
)
from arena.formats.results.bracket import build_bracket  # noqa: E402
from arena.formats.results.bracket_svg import bracket_svg  # noqa: E402
from arena.formats.results.crosstable import crosstable, crosstable_json  # noqa: E402
from arena.formats.results.published import Entrant, PlayedMatch, Results  # noqa: E402
from arena.formats.tiebreaks import head_to_head, sonneborn_berger  # noqa: E402

CASES = [
    ("round-robin", 2, 63, None),  # 1,953 matches: the largest two-seat round robin allowed
    ("round-robin", 4, 14, None),  # 1,001 four-seat tables
    ("swiss", 2, 400, 5),  # 1,000 matches
    ("knockout", 2, 256, None),
]


def played(fmt: str, seats: int, n: int, rounds: int | None) -> tuple[list[Any], list[Any], Any]:
    rng = random.Random(1)
    opts = FormatOptions(players=seats, rounds=rounds)
    rows = new_standings([str(i) for i in range(1, n + 1)])
    matches: list[PlayedMatch] = []
    number = 0
    while (rnd := next_round(fmt, rows, number, opts)) is not None:
        results = []
        for m in rnd.matches:
            ranks = tuple(rng.sample(range(1, seats + 1), seats))
            results.append(Result(m.bots, ranks))
            matches.append(PlayedMatch(len(matches) + 1, number, "finished", m.bots, ranks))
        rows = record_round(fmt, rows, number, results, opts, planned=rnd)
        number += 1
    entrants = [
        Entrant(r.bot, int(r.bot), int(r.bot), f"bot {r.bot}", 1, "someone", i, r)
        for i, r in enumerate(ranking(fmt, rows), start=1)
    ]
    return entrants, matches, rows


def best_ms(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * min(times)


def measure(fmt: str, seats: int, n: int, rounds: int | None, repeat: int) -> list[Any]:
    entrants, matches, rows = played(fmt, seats, n, rounds)

    def compute() -> Results:
        met = head_to_head(Result(m.bots, m.ranks) for m in matches)
        return Results(
            1, fmt, "finished", entrants, matches, met, sonneborn_berger(rows, met),
            {e.key: e for e in entrants},
        )  # fmt: skip

    res = compute()

    def url(pk: int) -> str:
        return f"/matches/{pk}/"

    def page() -> None:
        if fmt == "round-robin":
            rows = crosstable(res, url)
            render_to_string(
                "competitions/_crosstable.html", {"rows": rows, "two_seats": seats == 2}
            )
        elif fmt == "knockout":
            bracket_svg(build_bracket(res), res.by_key, url)

    page()  # the templates compiled once, as in a running server
    return [
        fmt, seats, n, len(matches),
        best_ms(compute, repeat), best_ms(page, repeat),
        best_ms(lambda: (crosstable_json(res), standings_csv(res)), repeat),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    head = ["format", "seats", "entrants", "matches", "results ms", "page part ms", "exports ms"]
    lines = [measure(*case, args.repeat) for case in CASES]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|---|" + "---:|" * (len(head) - 1))
        for line in lines:
            print(
                "| "
                + " | ".join(f"{v:.1f}" if isinstance(v, float) else str(v) for v in line)
                + " |"
            )
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(*head)
    for line in lines:
        table.add_row(*(f"{v:.1f}" if isinstance(v, float) else str(v) for v in line))
    Console().print(table)


if __name__ == "__main__":
    main()
