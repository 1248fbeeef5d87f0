"""Time to plan and record one round of each tournament format, by field size.

What the platform pays (in a worker) when the last match of a round is recorded:
``record_round`` (which plans the round again to check the results, as the platform does not
keep the plan) and ``next_round``.
Results are drawn at random (ties included); the slowest round of the tournament is shown.
Times are CPU seconds of this process (time.process_time), so a busy machine changes them little.

    python bench/formats_speed.py [--rounds 6] [--markdown]
    python bench/formats_speed.py --pairing 256,512,1000 [--seats 2] [--late 40] [--markdown]

``--pairing``: Swiss ``next_round`` alone (what a league round pays to pair) at ``--seats``
seats, CPU seconds for rounds 1-3 and one late round (the rows of the rounds between are
filled with random results against random opponents, without planning them, so a late round
costs no more to reach than the first ones).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.formats import (  # noqa: E402
    FormatOptions,
    Result,
    StandingRow,
    match_points,
    new_standings,
    next_round,
    record_round,
)
from games.rng import Rng  # noqa: E402

CASES = [
    ("swiss", 2, 16),
    ("swiss", 2, 64),
    ("swiss", 2, 128),
    ("swiss", 2, 256),
    ("swiss", 4, 64),
    ("swiss", 4, 256),
    ("knockout", 2, 256),
    ("knockout", 4, 256),
    ("round-robin", 2, 64),
    ("round-robin", 4, 16),
]


def measure(fmt: str, players: int, n: int, rounds: int) -> dict[str, float]:
    options = FormatOptions(players=players, rounds=rounds if fmt == "swiss" else None, seed=1)
    rows = new_standings([f"bot{i:03d}" for i in range(n)])
    rng = Rng(7)
    worst = total = 0.0
    number = 0
    start = time.process_time()
    rnd = next_round(fmt, rows, 0, options)
    first = time.process_time() - start  # a round robin's first call builds the schedule
    while rnd is not None and number < rounds:
        results = []
        for m in rnd.matches:
            scores = [rng.below(3) for _ in m.bots]
            results.append(Result(m.bots, tuple(1 + sum(o > s for o in scores) for s in scores)))
        t = time.process_time()
        rows = record_round(fmt, rows, number, results, options)
        number += 1
        rnd = next_round(fmt, rows, number, options)
        spent = time.process_time() - t
        worst, total = max(worst, spent), total + spent
    return {"rounds": number, "first_s": first, "worst_s": worst, "mean_s": total / number}


def _random_history(rows: dict[str, StandingRow], rounds: int, rng: Rng, seats: int = 2) -> None:
    """``rounds`` rounds of results written straight into the rows (each round a random split
    into tables of ``seats``): the state a late round of a big league starts from."""
    names = sorted(rows)
    for _ in range(rounds):
        order = names[:]
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with the seeded generator
            j = rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        for k in range(0, len(order) - seats + 1, seats):
            table = order[k : k + seats]
            scores = [rng.below(3) for _ in table]
            ranks = [1 + sum(o > s for o in scores) for s in scores]
            for seat, (bot, pts) in enumerate(zip(table, match_points(ranks), strict=True)):
                rows[bot].count_match(seat, table, ranks, pts)
    for row in rows.values():
        row.buchholz = float(sum(rows[o].points * k for o, k in row.opponents.items()))


def pairing(n: int, late: int, seats: int = 2) -> dict[str, float]:
    """CPU seconds of ``next_round`` for rounds 1-3 (after random results) and round ``late``."""
    options = FormatOptions(players=seats, rounds=late + 1, seed=1)
    rng = Rng(11)
    rows = new_standings([f"bot{i:04d}" for i in range(n)])
    out: dict[str, float] = {}
    for number in range(3):
        t = time.process_time()
        rnd = next_round("swiss", rows, number, options)
        out[f"round {number + 1}"] = time.process_time() - t
        assert rnd is not None
        results = []
        for m in rnd.matches:
            scores = [rng.below(3) for _ in m.bots]
            results.append(Result(m.bots, tuple(1 + sum(o > s for o in scores) for s in scores)))
        rows = record_round("swiss", rows, number, results, options, planned=rnd)
    _random_history(rows, late - 4, rng, seats)
    t = time.process_time()
    next_round("swiss", rows, late - 1, options)
    out[f"round {late}"] = time.process_time() - t
    return out


def pairing_main(sizes: list[int], late: int, markdown: bool, seats: int = 2) -> None:
    measured = [(n, pairing(n, late, seats)) for n in sizes]
    cols = ["entrants", *measured[0][1]]
    table = Table(title=f"{seats}-seat Swiss: next_round alone, CPU s")
    for col in cols:
        table.add_column(col, justify="right")
    for n, m in measured:
        table.add_row(str(n), *(f"{v:.3f}" for v in m.values()))
    Console(width=120).print(table)
    if markdown:
        print("| " + " | ".join(cols) + " |")
        print("|" + "---:|" * len(cols))
        for n, m in measured:
            print(f"| {n} | " + " | ".join(f"{v:.3f}" for v in m.values()) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="rounds measured per row")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table too")
    parser.add_argument("--pairing", help="Swiss pairing only, at these sizes (a,b,c)")
    parser.add_argument("--seats", type=int, default=2, help="seats a table, for --pairing")
    parser.add_argument("--late", type=int, default=40, help="the late round --pairing times")
    args = parser.parse_args()
    if args.pairing:
        sizes = [int(x) for x in args.pairing.split(",")]
        pairing_main(sizes, args.late, args.markdown, args.seats)
        return
    rows = [(c, measure(*c, args.rounds)) for c in CASES]
    table = Table(title="One round of a format: record_round + next_round")
    for col in ("format", "seats", "entrants", "rounds", "first plan s", "mean s", "worst s"):
        table.add_column(col, justify="left" if col == "format" else "right")
    for (fmt, players, n), m in rows:
        table.add_row(
            fmt,
            str(players),
            str(n),
            str(m["rounds"]),
            f"{m['first_s']:.3f}",
            f"{m['mean_s']:.3f}",
            f"{m['worst_s']:.3f}",
        )
    Console(width=120).print(table)
    if args.markdown:
        print("| format | seats | entrants | rounds | first plan s | mean s | worst s |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for (fmt, players, n), m in rows:
            print(
                f"| {fmt} | {players} | {n} | {m['rounds']} | {m['first_s']:.3f} "
                f"| {m['mean_s']:.3f} | {m['worst_s']:.3f} |"
            )


if __name__ == "__main__":
    main()
