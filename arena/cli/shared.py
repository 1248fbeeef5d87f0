"""What the commands share: exit codes, the parser class that reports usage errors in one line,
the consoles, the time and sandbox options, and small formatters."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from rich.console import Console

from arena.contract import DEFAULT_TIME_CONTROL, FAULT_LIMIT, TimeControl
from sandbox import registry

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_SYSTEM = 3
EXIT_INTERRUPTED = 130

#: What a command module's ``register`` receives: the ``arena`` parser's subcommands.
Subcommands = argparse._SubParsersAction


class UsageError(Exception):
    """Raised instead of argparse's exit, so that main() prints one line and returns 2."""


class Parser(argparse.ArgumentParser):
    _intermixing = False

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see: {self.prog} --help)")

    def parse_known_args(  # type: ignore[override]
        self, args: Any = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # A command's own parser takes its options anywhere among its positionals
        # (`arena play trnd --seed 3 a.py b.py`); plain argparse stops the BOT list at the first
        # option and calls the rest unrecognized. Parsers of subcommands parse as argparse does
        # (intermixed parsing cannot hand the rest of the line to a subcommand).
        if self._subparsers is not None or self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return super().parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit 1 (a failed check, to arena): main() ends the command quietly, as it
        # does when a plain print finds the reader of the pipe gone (`arena matches | head`).
        self.quiet = True
        raise BrokenPipeError(32, "Broken pipe")


def stdout() -> Console:
    # Piped output is not cut at 80 columns: tables keep their natural width.
    return _Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 200)


def stderr() -> Console:
    return _Console(stderr=True, highlight=False)


def add_time_args(p: argparse.ArgumentParser) -> None:
    """The options of every command that plays matches: clocks, sandbox, game options, faults."""
    p.add_argument(
        "--move-ms",
        type=int,
        default=DEFAULT_TIME_CONTROL.move_ms,
        metavar="MS",
        help="time per decision before the bank is drawn on "
        f"(default {DEFAULT_TIME_CONTROL.move_ms})",
    )
    p.add_argument(
        "--bank-ms",
        type=int,
        default=DEFAULT_TIME_CONTROL.bank_ms,
        metavar="MS",
        help=f"time bank for the whole match, per seat (default {DEFAULT_TIME_CONTROL.bank_ms})",
    )
    p.add_argument(
        "--start-ms",
        type=int,
        default=DEFAULT_TIME_CONTROL.start_ms,
        metavar="MS",
        help=f"time to answer start with ready (default {DEFAULT_TIME_CONTROL.start_ms})",
    )
    p.add_argument(
        "--sandbox",
        choices=registry.names(),
        default=None,
        help="how bot programs run: "
        + "; ".join(backend.shown() for backend in registry.backends())
        + ". Default: $ARENA_SANDBOX, else auto",
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
        default=FAULT_LIMIT,
        metavar="N",
        help=f"faults that retire a seat (default {FAULT_LIMIT})",
    )


def game_options(pairs: list[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs as a dict (VALUE read as JSON, else as text)."""
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


def time_control(args: argparse.Namespace) -> TimeControl:
    return TimeControl(start_ms=args.start_ms, move_ms=args.move_ms, bank_ms=args.bank_ms)


def cell(value: Any) -> str:
    """A value as a table cell: - for none, two decimals for a float."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
