"""Engine speed: random full games per second and microseconds per decision, per game, one core.

    python bench/games_speed.py [--seconds 3] [--markdown]

A decision here is what the referee asks of an engine per move: ``legal_actions()``,
``observation(seat)`` and ``apply(action)``. The games are played by uniformly random choices
from a fixed seed, so runs are comparable; ``--seconds`` is the time budget per row.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from games.registry import all_games
from games.rng import Rng, derive_seed


def measure(game, players: int, budget_s: float) -> dict[str, float]:  # type: ignore[no-untyped-def]
    games = decisions = 0
    obs_time = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < budget_s or games == 0:
        seed = derive_seed(2026, game.slug, players, games)
        state = game.new_game(players, seed)
        rng = Rng(seed)
        while True:
            seat = state.current_seat()
            if seat is None:
                break
            legal = state.legal_actions()
            t0 = time.perf_counter()
            state.observation(seat)
            obs_time += time.perf_counter() - t0
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
        state.result()
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
        "us_per_decision": elapsed / decisions * 1e6,
        "us_observation": obs_time / decisions * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per row")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table too")
    args = parser.parse_args()

    rows = []
    for game in all_games():
        for players in sorted({game.min_players, game.max_players}):
            rows.append((game.slug, players, measure(game, players, args.seconds)))

    table = Table(title="Random full games, one core")
    for col in (
        "game",
        "players",
        "games",
        "games/s",
        "decisions/game",
        "µs/decision",
        "of which observation µs",
    ):
        table.add_column(col, justify="right" if col not in ("game",) else "left")
    for slug, players, m in rows:
        table.add_row(
            slug,
            str(players),
            str(m["games"]),
            f"{m['games_per_s']:.1f}",
            f"{m['decisions_per_game']:.0f}",
            f"{m['us_per_decision']:.1f}",
            f"{m['us_observation']:.1f}",
        )
    Console(width=130).print(table)
    if args.markdown:
        print(
            "| game | players | games/s | decisions/game | µs/decision | of which observation µs |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for slug, players, m in rows:
            print(
                f"| {slug} | {players} | {m['games_per_s']:.1f} | {m['decisions_per_game']:.0f} "
                f"| {m['us_per_decision']:.1f} | {m['us_observation']:.1f} |"
            )


if __name__ == "__main__":
    main()
