"""The ``arena`` command line (docs/cli.md): games, play, tournament, replay verify, new-bot,
and, with a site, login, logout, submit, bots, matches and replay fetch.

Exit codes: 0 success; 1 a check failed (``replay verify`` found a disagreement, ``submit``'s
version failed its check or qualification); 2 bad input or usage (also a wrong site address, a
refused token or upload, an unknown bot or match); 3 a system error (the sandbox or the
platform failed, a match ended in ``error``, the site is unreachable, failing or limiting
requests); 130 interrupted. Errors are one line on stderr, ``arena: error: ...``.

One module per command (or group of commands, such as ``replay``): its ``register(sub)`` adds
the command's parser and sets ``run``, a function of the parsed arguments that returns the exit
code. A new command is a module and one entry in :data:`COMMANDS`.

A command's heavy modules (the referee, replays, tournaments, the viewer, the sandbox) are
imported inside its ``run``, each such import marked ``# lazy``: measured on 2026-12-03,
``import arena.cli`` alone takes about 0.8 s, with every command's modules about 2 s, so
``arena --help``, ``arena games`` and the site's commands do not pay for a match.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import signal
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from arena.cli import account, games, new_bot, play, remote, replay, submit, tournament
from arena.cli.shared import (
    EXIT_BAD_INPUT,
    EXIT_CHECK_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SYSTEM,
    Parser,
    Subcommands,
    UsageError,
)

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_CHECK_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_SYSTEM",
    "UsageError",
    "build_parser",
    "main",
]

#: The commands, in the order ``arena --help`` lists them.
COMMANDS: tuple[Callable[[Subcommands], None], ...] = (
    games.register,
    play.register,
    tournament.register,
    replay.register,
    new_bot.register,
    account.register,
    submit.register,
    remote.register,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="arena",
        description="Meeple Arena: run bot matches and tournaments on the command line.",
        epilog="Exit codes: 0 ok, 1 check failed (replay verify, submit's qualification), "
        "2 bad input, 3 system error (or the site unreachable), 130 interrupted. "
        "See docs/cli.md.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for register in COMMANDS:
        register(sub)
    return parser


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
    # lazy: loaded when a command runs, not for `arena --help` (see the module's docstring)
    # lazy: loaded when a command runs, not for `arena --help` (see the module's docstring)
    from arena.botspec import BotSpecError  # noqa: F401  (a ValueError, caught below)
    from sandbox.base import SandboxError
    from sandbox.host_build import BuildFailed

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
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except UsageError as e:
        print(f"arena: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SandboxError as e:
        print(f"arena: error: sandbox: {e}", file=sys.stderr)
        return EXIT_SYSTEM
    except BuildFailed as e:  # the compiler's own lines, as it wrote them
        print(f"arena: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, OSError) as e:  # GameError, BotSpecError, ReplayError, files...
        if isinstance(e, BrokenPipeError) and _stdout_closed():
            return EXIT_OK  # `arena matches --json | head`: the reader had enough
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


def _stdout_closed() -> bool:
    """Whether stdout is a pipe whose reader has gone; if so, stdout is pointed at /dev/null,
    so that Python's final flush does not fail on it again ('Exception ignored ...')."""
    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        # A pipe's write end polls POLLERR once its reader has closed it.
        if not any(events & select.POLLERR for _, events in poll.poll(0)):
            return False
    except (OSError, ValueError, AttributeError):  # no poll here, or stdout is no file
        return False
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return True


def _one_line(e: BaseException) -> str:
    if isinstance(e, OSError) and e.filename:
        return f"{e.filename}: {e.strerror or e}"
    return " ".join(str(e).split()) or type(e).__name__
