"""The ``arena`` command line (docs/cli.md): games, play, tournament, replay verify, new-bot.

Exit codes: 0 success; 1 a check failed (``replay verify`` found a disagreement); 2 bad input
or usage; 3 a system error (the sandbox or the platform failed, a match ended in ``error``);
130 interrupted. Errors are one line on stderr, ``arena: error: ...``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from rich.console import Console
from rich.table import Table

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_SYSTEM = 3
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Raised instead of argparse's exit, so that main() prints one line and returns 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see: {self.prog} --help)")


def _stdout() -> Console:
    # Piped output is not cut at 80 columns: tables keep their natural width.
    return Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 200)


def _stderr() -> Console:
    return Console(stderr=True, highlight=False)


def _time_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--move-ms",
        type=int,
        default=1000,
        metavar="MS",
        help="time per decision before the bank is drawn on (default 1000)",
    )
    p.add_argument(
        "--bank-ms",
        type=int,
        default=10000,
        metavar="MS",
        help="time bank for the whole match, per seat (default 10000)",
    )
    p.add_argument(
        "--start-ms",
        type=int,
        default=5000,
        metavar="MS",
        help="time to answer start with ready (default 5000)",
    )
    p.add_argument(
        "--sandbox",
        choices=["auto", "docker", "process"],
        default=None,
        help="how bot programs run (default: $ARENA_SANDBOX, else auto: Docker when "
        "available, else plain processes, which are not a security boundary)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (VALUE read as JSON, else as text); repeatable",
    )
    p.add_argument(
        "--fault-limit",
        type=int,
        default=3,
        metavar="N",
        help="faults that retire a seat (default 3)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="arena",
        description="Meeple Arena: run bot matches and tournaments on the command line.",
        epilog="Exit codes: 0 ok, 1 check failed (replay verify), 2 bad input, "
        "3 system error, 130 interrupted. See docs/cli.md.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "games",
        help="list the games with player counts and options",
        description="List the registered games, their player counts, options and built-in bots.",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")

    p = sub.add_parser(
        "play",
        help="play one match and print the results",
        description="Play one match. A BOT is a .py file, a folder or .zip "
        "holding main.py, builtin:NAME, or human (you, at this terminal: the picture, your "
        "observation and numbered legal actions; type a number); one per seat, in order.",
    )
    p.add_argument("game", metavar="GAME", help="game slug (see: arena games)")
    p.add_argument("bots", metavar="BOT", nargs="+", help="one bot per seat")
    p.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
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
        help="a human seat's time per decision; no answer by then forfeits (default 300000)",
    )
    _time_args(p)

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
    p.add_argument(
        "--format",
        choices=["round-robin", "swiss", "knockout"],
        default="round-robin",
        help="the tournament format (default round-robin); the order of the BOTs is the "
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
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="J", help="matches run in parallel (default 1)"
    )
    p.add_argument("--out", metavar="DIR", help="save every replay and standings.json in DIR")
    p.add_argument("--json", action="store_true", help="print the standings as JSON")
    _time_args(p)

    p = sub.add_parser(
        "replay", help="work with replay files", description="Work with replay files."
    )
    rsub = p.add_subparsers(dest="replay_command", metavar="ACTION", parser_class=_Parser)
    v = rsub.add_parser(
        "verify",
        help="re-simulate a replay and check it",
        description="Re-simulate the match from its seed, options and "
        "decisions; check every action, event and the result.",
    )
    v.add_argument("file", metavar="FILE")
    v.add_argument("--json", action="store_true", help="print the findings as JSON")

    p = sub.add_parser(
        "new-bot",
        help="write a starter bot and README into a folder",
        description="Write a commented starter bot (plain Python, standard "
        "library only) and a README on testing it locally.",
    )
    p.add_argument("game", metavar="GAME")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    return parser


# -- helpers ---------------------------------------------------------------------------------


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option wants NAME=VALUE, got {pair!r}")
        try:
            out[name] = json.loads(raw)
        except ValueError:
            out[name] = raw
    return out


def _time_control(args: argparse.Namespace) -> Any:
    from arena.referee import TimeControl

    return TimeControl(start_ms=args.start_ms, move_ms=args.move_ms, bank_ms=args.bank_ms)


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


# -- commands --------------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
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
    _stdout().print(table)
    return EXIT_OK


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
            _fmt(s.score),
            _fmt(s.rank),
            f"[{colour}]{s.status}[/{colour}]",
            str(len(s.faults)),
            f"{s.time_ms:.0f}",
        )
    return table


def cmd_play(args: argparse.Namespace) -> int:
    from arena.human import HUMAN, HumanTime, TerminalChannel
    from arena.referee import run_match
    from arena.replay import save_replay

    human, human_time = None, None
    if HUMAN in args.bots:
        human = TerminalChannel(sys.stdin, sys.stdout)
        if args.human_move_ms is not None:
            human_time = HumanTime(move_ms=args.human_move_ms)
    outcome = run_match(
        args.game,
        args.bots,
        seed=args.seed,
        options=_options(args.option),
        time=_time_control(args),
        sandbox=args.sandbox,
        fault_limit=args.fault_limit,
        max_decisions=args.max_decisions,
        human=human,
        human_time=human_time,
    )
    if args.replay:
        save_replay(outcome.replay, args.replay)
    if args.json:
        print(json.dumps(outcome.to_json()))
    else:
        out = _stdout()
        out.print(_results_table(outcome))
        if outcome.ok:
            out.print(
                f"{len(outcome.replay['decisions'])} decisions, "
                f"ended: {outcome.result.get('reason')}"
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
        if args.replay:
            out.print(f"replay written to {args.replay}")
    if not outcome.ok:
        _stderr().print(
            f"arena: error: the match failed (system error): {outcome.error}", markup=False
        )
        return EXIT_SYSTEM
    return EXIT_OK


def _standings_table(t: Any) -> Table:
    rated = t.standings.by_bot()
    knockout, swiss = t.format == "knockout", t.format == "swiss"
    title = f"{t.game} {t.format}: {len(t.outcomes)} matches in {len(t.rounds)} rounds"
    lo = t.options.smallest
    table = Table(
        title=f"{title}, tables of {t.players if lo == t.players else f'{lo}-{t.players}'}"
    )
    columns = ["#", "bot", "points"]
    columns += ["out"] if knockout else ["Buchholz", "byes"] if swiss else []
    columns += ["matches", "wins", "avg rank", "Elo", "OpenSkill mu±sigma", "ordinal", "faults"]
    for col in columns:
        table.add_column(col, justify="left" if col in ("bot", "out") else "right")
    # Round robin: by the ratings, as ever; Swiss and knockout: by the format's own order.
    order = (
        [row.bot for row in t.standings.rows]
        if t.format == "round-robin"
        else [r.bot for r in t.ranking]
    )
    for n, bot in enumerate(order, 1):
        row, fmt = rated[bot], t.rows[bot]
        cells = [str(n), bot, _fmt(float(fmt.points))]
        if knockout:
            out = fmt.eliminated_in
            cells.append("winner" if not fmt.eliminated else f"round {out + 1}")
        elif swiss:
            cells += [_fmt(fmt.buchholz), str(fmt.byes)]
        cells += [
            str(row.matches),
            str(row.wins),
            _fmt(row.avg_rank),
            f"{row.elo:.0f}",
            f"{row.mu:.1f}±{row.sigma:.1f}",
            f"{row.ordinal:.1f}",
            str(row.faults),
        ]
        table.add_row(*cells)
    return table


def cmd_tournament(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from arena.tournament import plan_tournament, run_tournament

    shape: dict[str, Any] = {
        "format": args.format,
        "rounds": args.rounds,
        "games": args.games,
        "seed": args.seed,
        "players": args.players,
        "min_players": args.min_players,
        "advance": args.advance,
        "tie_replays": args.tie_replays,
        "jobs": args.jobs,
        "options": _options(args.option),
    }
    plan = plan_tournament(args.game, args.bots, **shape)
    errors = 0
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=_stderr(),
        transient=args.json,
    )
    with progress:
        task = progress.add_task(f"{args.game}", total=plan.matches)

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
            time=_time_control(args),
            sandbox=args.sandbox,
            fault_limit=args.fault_limit,
            out_dir=args.out,
            on_match=on_match,
            on_round=on_round,
        )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        out = _stdout()
        out.print(_standings_table(result))
        if args.out:
            out.print(f"replays and standings.json written to {args.out}")
    if errors:
        first = result.errors[0].error
        _stderr().print(
            f"arena: error: {errors} match(es) failed (system error, not rated); first: {first}",
            markup=False,
        )
        return EXIT_SYSTEM
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from arena.replay import load_replay, verify_replay

    if args.replay_command != "verify":
        raise UsageError("replay wants an action: verify (see: arena replay --help)")
    doc = load_replay(args.file)
    problems = verify_replay(doc)
    if args.json:
        print(
            json.dumps(
                {
                    "file": args.file,
                    "ok": not problems,
                    "problems": problems,
                    "decisions": len(doc.get("decisions", [])),
                }
            )
        )
    elif problems:
        err = _stderr()
        for problem in problems:
            err.print(f"{args.file}: {problem}", markup=False)
        err.print(f"arena: replay verify: {len(problems)} problem(s) found", markup=False)
    else:
        _stdout().print(
            f"{args.file}: ok ({doc['game']}, seed {doc['seed']}, "
            f"{len(doc['decisions'])} decisions re-simulated)",
            markup=False,
        )
    return EXIT_CHECK_FAILED if problems else EXIT_OK


def cmd_new_bot(args: argparse.Namespace) -> int:
    from arena.newbot import new_bot

    written = new_bot(args.game, args.dir, force=args.force)
    out = _stdout()
    for path in written:
        out.print(f"wrote {path}", markup=False)
    out.print(f"next: cd {args.dir} and read README.md", markup=False)
    return EXIT_OK


COMMANDS = {
    "games": cmd_games,
    "play": cmd_play,
    "tournament": cmd_tournament,
    "replay": cmd_replay,
    "new-bot": cmd_new_bot,
}


def _one_line_warnings(
    message: Any,
    category: Any,
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    print(f"arena: warning: {message}", file=sys.stderr)


def _sigterm(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt  # unwinds through the referee's clean-up, like Ctrl-C


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    from arena.botspec import BotSpecError  # noqa: F401  (a ValueError, caught below)
    from sandbox.base import SandboxError

    old_warning, old_sigterm = warnings.showwarning, signal.getsignal(signal.SIGTERM)
    warnings.showwarning = _one_line_warnings
    if old_sigterm is signal.SIG_DFL:
        with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
            signal.signal(signal.SIGTERM, _sigterm)
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            build_parser().print_help()
            return EXIT_BAD_INPUT
        return COMMANDS[args.command](args)
    except UsageError as e:
        print(f"arena: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SandboxError as e:
        print(f"arena: error: sandbox: {e}", file=sys.stderr)
        return EXIT_SYSTEM
    except (ValueError, OSError) as e:  # GameError, BotSpecError, ReplayError, files...
        print(f"arena: error: {_one_line(e)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("arena: interrupted; every bot process was ended", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        warnings.showwarning = old_warning
        if old_sigterm is signal.SIG_DFL:
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _one_line(e: BaseException) -> str:
    if isinstance(e, OSError) and e.filename:
        return f"{e.filename}: {e.strerror or e}"
    return " ".join(str(e).split()) or type(e).__name__
