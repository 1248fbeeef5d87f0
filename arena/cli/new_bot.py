"""``arena new-bot GAME DIR``: a commented starter bot and a README in a folder."""

from __future__ import annotations

import argparse

from arena.cli.shared import EXIT_OK, Subcommands, stdout


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "new-bot",
        help="write a starter bot and README into a folder",
        description="Write a commented starter bot (plain Python, standard "
        "library only) and a README on testing it locally.",
    )
    p.add_argument("game", metavar="GAME")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from arena.newbot import new_bot

    written = new_bot(args.game, args.dir, force=args.force)
    out = stdout()
    for path in written:
        out.print(f"wrote {path}", markup=False)
    out.print(f"next: cd {args.dir} and read README.md", markup=False)
    return EXIT_OK
