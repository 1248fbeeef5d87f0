"""``arena games``: the registered games, their player counts, options and built-in bots."""

from __future__ import annotations

import argparse
import json

from rich.table import Table

from arena.cli.shared import EXIT_OK, Subcommands, stdout


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "games",
        help="list the games with player counts and options",
        description="List the registered games, their player counts, options and built-in bots.",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from games import registry

    rows = []
    for slug in registry.slugs():
        try:
            d = registry.get_game(slug).describe()
            d["bots"] = list(registry.bots(slug))
        except Exception as e:  # a game being written may not import yet: say so, go on
            d = {"slug": slug, "error": f"{type(e).__name__}: {e}"}
        rows.append(d)
    if args.json:
        print(json.dumps(rows, indent=1))
        return EXIT_OK
    table = Table(title="Games")
    for col in ("game", "name", "players", "options (default)", "built-in bots"):
        table.add_column(col, overflow="fold")
    for d in rows:
        if "error" in d:
            table.add_row(d["slug"], "[red]unavailable[/red]", "", d["error"], "")
            continue
        span = (
            str(d["min_players"])
            if d["min_players"] == d["max_players"]
            else f"{d['min_players']}-{d['max_players']}"
        )
        opts = "\n".join(f"{o['name']}={json.dumps(o['default'])}" for o in d["options"]) or "-"
        table.add_row(d["slug"], d["name"], span, opts, ", ".join(d["bots"]))
    stdout().print(table)
    return EXIT_OK
