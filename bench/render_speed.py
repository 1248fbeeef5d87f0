"""Board pictures: milliseconds to draw one SVG picture of a game's state, per game, one core.

    python bench/render_speed.py [--games 3] [--markdown]

Positions come from random games (fixed seeds, every 5th position, the most seats the game
allows), drawn whole (a replay's picture) and as seat 0 sees them (the live page's picture).
The replay viewer draws one picture a step, so this is what a cold replay costs per step.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from games.registry import all_games, svg_renderer
from games.rng import Rng


def positions(game: Any, games: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for seed in range(games):
        state = game.new_game(game.max_players, seed)
        rng = Rng(seed)
        step = 0
        while not state.is_over():
            if step % 5 == 0:
                found.append(state.to_json())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            step += 1
        found.append(state.to_json())
    return found


def per_picture_ms(render: Any, states: list[dict[str, Any]], viewer: int | None) -> list[float]:
    times = []
    for data in states:
        start = time.perf_counter()
        render(data, viewer=viewer)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="random games per game (default 3)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    table = Table(title="SVG pictures, ms per picture")
    for col in ("game", "seats", "pictures", "whole p50", "whole p95", "seat 0 p50", "seat 0 p95"):
        table.add_column(col, justify="left" if col == "game" else "right")
    rows = []
    for game in all_games():
        render = svg_renderer(game.slug)
        if render is None:
            continue
        states = positions(game, args.games)
        whole = sorted(per_picture_ms(render, states, None))
        seat = sorted(per_picture_ms(render, states, 0))

        def q(values: list[float], p: float) -> str:
            return f"{values[min(len(values) - 1, int(p * len(values)))]:.1f}"

        row = [
            game.name, str(game.max_players), str(len(states)),
            f"{statistics.median(whole):.1f}", q(whole, 0.95),
            f"{statistics.median(seat):.1f}", q(seat, 0.95),
        ]  # fmt: skip
        rows.append(row)
        table.add_row(*row)
    if args.markdown:
        print("| game | seats | pictures | whole p50 | whole p95 | seat 0 p50 | seat 0 p95 |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
