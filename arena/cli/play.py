"""``arena play GAME BOT...``: one match, its results table, faults and replay; with
``--from-replay`` a recorded match played on from one of its decisions (arena/cli/rerun.py)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.table import Table

from arena.cli.rerun import add_rerun_args, play_from_replay, print_comparison, time_control
from arena.cli.shared import (
    EXIT_OK,
    EXIT_SYSTEM,
    Subcommands,
    UsageError,
    add_time_args,
    cell,
    game_options,
    stderr,
    stdout,
)
from arena.contract import TimeControl
from arena.human_seat import DEFAULT_HUMAN_MOVE_MS, HUMAN, HumanTime, TerminalChannel


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "play",
        help="play one match and print the results",
        description="Play one match. A BOT is a source file in any language (main.py, "
        "main.js, Main.java, main.cpp, main.rs, main.go; a compiled one is built first), a "
        "folder or .zip of one, builtin:NAME, or human (you, at this terminal: the picture, your "
        "observation and numbered legal actions; type a number); one per seat, in order. "
        "With --from-replay FILE --at STEP --seat N: one BOT (GAME may be left out), which "
        "plays seat N of the recorded match from its decision STEP on.",
    )
    # GAME is optional to argparse: a re-run may leave it out, and run() says what is missing.
    p.add_argument("game", metavar="GAME", nargs="?", help="game slug (see: arena games)")
    p.add_argument("bots", metavar="BOT", nargs="*", help="one bot per seat")
    p.add_argument("--seed", type=int, default=None, help="match seed (default 0)")
    p.add_argument("--replay", metavar="FILE", help="write the replay (JSON) to FILE")
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object (game, seed, status, result, seats)",
    )
    p.add_argument(
        "--max-decisions",
        type=int,
        default=None,
        metavar="N",
        help="end the match after N decisions (default 50000)",
    )
    p.add_argument(
        "--human-move-ms",
        type=int,
        default=None,
        metavar="MS",
        help="a human seat's time per decision; no answer by then forfeits "
        f"(default {DEFAULT_HUMAN_MOVE_MS})",
    )
    add_time_args(p)
    add_rerun_args(p)
    p.set_defaults(run=run)


def _results_table(outcome: Any) -> Table:
    table = Table(title=f"{outcome.game}  seed {outcome.seed}  match {outcome.match_id}")
    for col in ("seat", "bot", "score", "rank", "status", "faults", "time ms"):
        table.add_column(
            col, overflow="fold", justify="right" if col in ("seat", "score", "rank") else "left"
        )
    for i, s in enumerate(outcome.seats):
        colour = "green" if s.status == "ok" else "red"
        bot = s.bot if not s.name or s.name == s.bot else f"{s.bot} ({s.name})"
        table.add_row(
            str(i),
            bot,
            cell(s.score),
            cell(s.rank),
            f"[{colour}]{s.status}[/{colour}]",
            str(len(s.faults)),
            f"{s.time_ms:.0f}",
        )
    return table


def run(args: argparse.Namespace) -> int:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.referee import run_match

    if args.from_replay is not None:
        if args.game is None:
            raise UsageError(
                "--from-replay wants the BOT that plays --seat N: a path, builtin:NAME or human"
            )
        human = terminal_person([args.game, *args.bots], args.human_move_ms)
        outcome, summary = play_from_replay(args, human)
        code = report(outcome, args, {"from_replay": summary})
        if not args.json:
            print_comparison(summary)
        return code
    if args.at is not None or args.seat is not None or args.others:
        raise UsageError("--at, --seat and --others go with --from-replay FILE")
    if args.game is None or not args.bots:
        raise UsageError("play wants GAME and one BOT per seat (see: arena play --help)")
    outcome = run_match(
        args.game,
        args.bots,
        seed=0 if args.seed is None else args.seed,
        options=game_options(args.option),
        time=time_control(args, TimeControl()),
        sandbox=args.sandbox,
        fault_limit=3 if args.fault_limit is None else args.fault_limit,
        max_decisions=args.max_decisions,
        **terminal_person(args.bots, args.human_move_ms),
    )
    return report(outcome, args)


def terminal_person(bots: list[str], human_move_ms: int | None) -> dict[str, Any]:
    """``run_match``'s human channel and clock when a seat is ``human``."""
    if HUMAN not in bots:
        return {}
    time = None if human_move_ms is None else HumanTime(move_ms=human_move_ms)
    return {"human": TerminalChannel(sys.stdin, sys.stdout), "human_time": time}


def report(outcome: Any, args: argparse.Namespace, extra: dict[str, Any] | None = None) -> int:
    """Write the replay, print the outcome (``extra``: more keys for ``--json``); the exit code."""
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.replay import save_replay

    if args.replay:
        save_replay(outcome.replay, args.replay)
    if args.json:
        print(json.dumps(outcome.to_json() | (extra or {})))
    else:
        _print_outcome(outcome, args.replay)
    if not outcome.ok:
        stderr().print(
            f"arena: error: the match failed (system error): {outcome.error}", markup=False
        )
        return EXIT_SYSTEM
    return EXIT_OK


def _print_outcome(outcome: Any, replay: str | None) -> None:
    """The results table, then each seat's faults, a crashed seat's stderr and retirements."""
    out = stdout()
    out.print(_results_table(outcome))
    if outcome.ok:
        out.print(
            f"{len(outcome.replay['decisions'])} decisions, ended: {outcome.result.get('reason')}"
        )
    for i, s in enumerate(outcome.seats):
        for f in s.faults:
            when = "at start" if f["turn"] is None else f"at turn {f['turn']}"
            out.print(
                f"[red]seat {i}[/red] ({s.bot}): {f['kind']} {when}: {f['detail']}",
                markup=True,
                highlight=False,
            )
        if s.status == "crashed":
            log = (outcome.replay.get("logs") or [""] * (i + 1))[i].strip()
            if log:
                tail = log if len(log) <= 600 else "..." + log[-600:]
                out.print(f"seat {i}'s stderr ends:\n{tail}", markup=False, highlight=False)
        if s.retired_turn is not None:
            out.print(
                f"seat {i} retired ({s.status}): the first legal action was played "
                "for it from then on; it ranks below every seat not retired"
            )
    if replay:
        out.print(f"replay written to {replay}")
