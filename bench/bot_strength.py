"""Built-in bot strength: each game's non-random bots against random opponents.

    python bench/bot_strength.py [--matches 1000] [--jobs 2] [--game SLUG] [--markdown]

For every game, every built-in bot other than ``random`` and every player count, plays
``--matches`` seeded matches of that bot against ``players - 1`` random bots (the hero's seat
rotating) and prints its share of first places (ties count) with a 95% Wilson interval, next to
the share a random bot would get by symmetry.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from games import registry
from games.rng import derive_seed
from games.simulate import play, wilson


def _chunk(args: tuple[str, str, int, int, int]) -> int:
    slug, hero, players, start, stop = args
    wins = 0
    for i in range(start, stop):
        hero_seat = i % players
        names = [hero if s == hero_seat else "random" for s in range(players)]
        result = play(slug, names, seed=derive_seed(4242, slug, players, i))
        wins += result.ranks[hero_seat] == 1
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    slugs = args.game or registry.slugs()
    jobs = []
    for slug in slugs:
        game = registry.get_game(slug)
        counts = args.players or list(range(max(2, game.min_players), game.max_players + 1))
        for hero in registry.bots(slug):
            if hero == "random":
                continue
            for players in counts:
                if game.min_players <= players <= game.max_players:
                    jobs.append((slug, hero, players))

    step = 50
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, Progress() as progress:
        for slug, hero, players in jobs:
            task = progress.add_task(f"{slug} {hero} ({players}p)", total=args.matches)
            futures = [
                pool.submit(_chunk, (slug, hero, players, s, min(s + step, args.matches)))
                for s in range(0, args.matches, step)
            ]
            wins = 0
            for fut in futures:
                wins += fut.result()
                progress.advance(task, step)
            low, high = wilson(wins, args.matches)
            rows.append((slug, hero, players, wins / args.matches, low, high))

    table = Table(title=f"First places against random opponents ({args.matches} matches each)")
    for col in ("game", "bot", "players", "first places", "95% interval", "random's share"):
        table.add_column(col)
    for slug, hero, players, share, low, high in rows:
        table.add_row(
            slug,
            hero,
            str(players),
            f"{share:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{1 / players:.0%}",
        )
    Console(width=130).print(table)
    if args.markdown:
        print("| game | bot | players | first places | 95% interval |")
        print("|---|---|---:|---:|---|")
        for slug, hero, players, share, low, high in rows:
            print(f"| {slug} | {hero} | {players} | {share:.1%} | {low:.1%} to {high:.1%} |")


if __name__ == "__main__":
    main()
