"""``arena new-bot GAME DIR [--lang LANG]``: a commented starter bot and a README in a folder."""

from __future__ import annotations

import argparse

from arena.cli.shared import EXIT_OK, Subcommands, stdout
from sandbox.languages import DEFAULT, LANGUAGES


def register(sub: Subcommands) -> None:
    names = "; ".join(f"{key}: {lang.name}" for key, lang in LANGUAGES.items())
    p = sub.add_parser(
        "new-bot",
        help="write a starter bot and README into a folder",
        description="Write a commented starter bot (standard library only, in any of the "
        "languages below) and a README on building and testing it locally.",
    )
    p.add_argument("game", metavar="GAME", help="the game's slug (`arena games` lists them)")
    p.add_argument("dir", metavar="DIR", help="the folder to write (made if missing)")
    p.add_argument(
        "--lang",
        default=DEFAULT,
        choices=list(LANGUAGES),
        metavar="LANG",
        help=f"the bot's language (default {DEFAULT}): {names}",
    )
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.newbot import new_bot

    written = new_bot(args.game, args.dir, lang=args.lang, force=args.force)
    out = stdout()
    for path in written:
        out.print(f"wrote {path}", markup=False)
    out.print(f"next: cd {args.dir} and read README.md", markup=False)
    return EXIT_OK
