"""Time to plan and record one round of each tournament format, by field size.

What the platform pays (in a worker) when the last match of a round is recorded:
``record_round`` (which plans the round again to check the results, as the platform does not
keep the plan) and ``next_round``.
Results are drawn at random (ties included); the slowest round of the tournament is shown.
Times are CPU seconds of this process (time.process_time), so a busy machine changes them little.

    python bench/formats_speed.py [--rounds 6] [--markdown]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="rounds measured per row")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table too")
    args = parser.parse_args()
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
