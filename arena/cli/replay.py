"""``arena replay ACTION``: work with replay files (``verify``: re-simulate one and check it)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from arena.cli.fetch import register_fetch
from arena.cli.shared import (
    EXIT_CHECK_FAILED,
    EXIT_OK,
    Parser,
    Subcommands,
    UsageError,
    stderr,
    stdout,
)
from arena.cli.view import register_view
from arena.cli.why import register_why


def register_verify(actions: Subcommands) -> None:
    v = actions.add_parser(
        "verify",
        help="re-simulate a replay and check it",
        description="Re-simulate the match from its seed, options and "
        "decisions; check every action, event and the result.",
    )
    v.add_argument("file", metavar="FILE")
    v.add_argument("--json", action="store_true", help="print the findings as JSON")
    v.set_defaults(run=run_verify)


#: The actions of ``arena replay``, in the order its help lists them. A new action is a
#: ``register`` function (here, or in a module of its own) that sets ``run``, and one entry.
ACTIONS: tuple[Callable[[Subcommands], None], ...] = (
    register_verify,
    register_fetch,
    register_why,
    register_view,
)


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "replay", help="work with replay files", description="Work with replay files."
    )
    actions = p.add_subparsers(dest="replay_command", metavar="ACTION", parser_class=Parser)
    for add in ACTIONS:
        add(actions)
    names = ", ".join(actions.choices)

    def no_action(_args: argparse.Namespace) -> int:
        raise UsageError(f"replay wants an action: {names} (see: arena replay --help)")

    p.set_defaults(run=no_action)  # an action's own ``run`` replaces it


def run_verify(args: argparse.Namespace) -> int:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.replay import load_replay, verify_replay

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
        err = stderr()
        for problem in problems:
            err.print(f"{args.file}: {problem}", markup=False)
        err.print(f"arena: replay verify: {len(problems)} problem(s) found", markup=False)
    else:
        stdout().print(
            f"{args.file}: ok ({doc['game']}, seed {doc['seed']}, "
            f"{len(doc['decisions'])} decisions re-simulated)",
            markup=False,
        )
    return EXIT_CHECK_FAILED if problems else EXIT_OK
