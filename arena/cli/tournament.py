"""``arena tournament GAME BOT...``: a round robin, Swiss or knockout tournament with a progress
bar and the standings (docs/formats.md)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.table import Table

from arena.cli.shared import (
    EXIT_OK,
    EXIT_SYSTEM,
    Subcommands,
    add_time_args,
    cell,
    game_options,
    stderr,
    stdout,
    time_control,
)
from arena.formats import FORMAT_NAMES, get_format
from arena.tournament_legend import ordering_note


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "tournament",
        help="a round robin, Swiss or knockout tournament with standings",
        description="A tournament of the bots, round by round: round robin (every "
        "combination of bots, seats rotated fairly), Swiss (rounds paired by the standings) "
        "or knockout (until one winner). See docs/formats.md.",
    )
    p.add_argument("game", metavar="GAME", help="game slug (see: arena games)")
    p.add_argument(
        "bots", metavar="BOT", nargs="+", help="the bots; a repeated BOT plays as BOT#2, BOT#3..."
    )
    _add_format_args(p)
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="J", help="matches run in parallel (default 1)"
    )
    p.add_argument("--out", metavar="DIR", help="save every replay and standings.json in DIR")
    p.add_argument("--json", action="store_true", help="print the standings as JSON")
    add_time_args(p)
    p.set_defaults(run=run)


def _add_format_args(p: argparse.ArgumentParser) -> None:
    """The format and its options (docs/formats.md)."""
    p.add_argument(
        "--format",
        choices=FORMAT_NAMES,
        default=FORMAT_NAMES[0],
        help=f"the tournament format (default {FORMAT_NAMES[0]}); the order of the BOTs is the "
        "seeding for knockout and breaks the last ties",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        metavar="N",
        help="Swiss: rounds to play (default ceil(log2 bots)); round robin: stop after N rounds",
    )
    p.add_argument(
        "--games",
        type=int,
        default=1,
        metavar="N",
        help="matches per table, seats rotated (default 1; a multiple of the "
        "table size gives every bot every seat equally often)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="P",
        help="seats per match (default: round robin, as many bots as the game seats; Swiss "
        "and knockout, the game's smallest table of two or more)",
    )
    p.add_argument(
        "--min-players",
        type=int,
        default=None,
        metavar="P",
        help="Swiss and knockout: smallest table when the field does not divide "
        "(default: the game's least, at least 2)",
    )
    p.add_argument(
        "--advance",
        type=int,
        default=1,
        metavar="K",
        help="multiplayer knockout: how many of each table go through (default 1)",
    )
    p.add_argument(
        "--tie-replays",
        type=int,
        default=0,
        metavar="N",
        help="two-seat knockout: play a table level on points again up to N times before "
        "the better seed goes through (default 0)",
    )


def _standings_table(t: Any) -> Table:
    rated = t.standings.by_bot()
    fmt = get_format(t.format)
    title = f"{t.game} {t.format}: {len(t.outcomes)} matches in {len(t.rounds)} rounds"
    lo = t.options.smallest
    table = Table(
        title=f"{title}, tables of {t.players if lo == t.players else f'{lo}-{t.players}'}",
        caption=ordering_note(t.format),
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("bot", justify="left")
    table.add_column("points", justify="right")
    for own in fmt.columns:  # the format's own columns (arena.formats.parts.Column)
        table.add_column(own.title, justify="left" if own.left else "right")
    for col in ("matches", "wins", "avg rank", "Elo", "OpenSkill mu±sigma", "ordinal", "faults"):
        table.add_column(col, justify="right")
    # Every format by its own order (as the site's tournament pages): points first.
    for n, line in enumerate(t.ranking, 1):
        row = rated[line.bot]
        cells = [str(n), line.bot, cell(float(line.points))]
        cells += [cell(own.value(line)) for own in fmt.columns]
        cells += [
            str(row.matches),
            str(row.wins),
            cell(row.avg_rank),
            f"{row.elo:.0f}",
            f"{row.mu:.1f}±{row.sigma:.1f}",
            f"{row.ordinal:.1f}",
            str(row.faults),
        ]
        table.add_row(*cells)
    return table


def run(args: argparse.Namespace) -> int:
    from arena.tournament import plan_tournament  # loads the referee: only when the command runs

    shape = _shape(args)
    plan = plan_tournament(args.game, args.bots, **shape)
    result, errors = _play(args, shape, plan.matches)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        out = stdout()
        out.print(_standings_table(result))
        if args.out:
            out.print(f"replays and standings.json written to {args.out}")
    if errors:
        first = result.errors[0].error
        stderr().print(
            f"arena: error: {errors} match(es) failed (system error, not rated); first: {first}",
            markup=False,
        )
        return EXIT_SYSTEM
    return EXIT_OK


def _shape(args: argparse.Namespace) -> dict[str, Any]:
    """The tournament's settings, as ``plan_tournament`` and ``run_tournament`` take them."""
    return {
        "format": args.format,
        "rounds": args.rounds,
        "games": args.games,
        "seed": args.seed,
        "players": args.players,
        "min_players": args.min_players,
        "advance": args.advance,
        "tie_replays": args.tie_replays,
        "jobs": args.jobs,
        "options": game_options(args.option),
    }


def _play(args: argparse.Namespace, shape: dict[str, Any], matches: int) -> tuple[Any, int]:
    """Play the tournament under a progress bar on stderr; returns it and how many of its
    matches failed."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from arena.tournament import run_tournament  # the referee: only when the command runs

    errors = 0
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr(),
        transient=args.json,
    )
    with progress:
        task = progress.add_task(f"{args.game}", total=matches)

        def on_round(rnd: Any) -> None:
            progress.update(task, description=f"{args.game} round {rnd.number + 1}")

        def on_match(_i: int, outcome: Any) -> None:
            nonlocal errors
            errors += not outcome.ok
            progress.advance(task)

        result = run_tournament(
            args.game,
            args.bots,
            **shape,
            time=time_control(args),
            sandbox=args.sandbox,
            fault_limit=args.fault_limit,
            out_dir=args.out,
            on_match=on_match,
            on_round=on_round,
        )
    return result, errors
