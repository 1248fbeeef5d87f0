"""``arena replay view FILE [-o OUT.html] [--open]``: the replay as one self-contained HTML
file, with the site's viewer (steps, speed, seat view, pictures, the replay's own logs) and no
network or server needed (docs/cli.md)."""

from __future__ import annotations

import argparse
import sys
import webbrowser
from pathlib import Path
from typing import Any

from arena.cli.shared import EXIT_OK, Subcommands, stderr, stdout


def register_view(actions: Subcommands) -> None:
    v = actions.add_parser(
        "view",
        help="write a replay as one HTML file to open in a browser",
        description="Write the replay as one self-contained HTML file: the site's replay "
        "viewer with every step's pictures embedded, and the bots' logs per decision when the "
        "replay has them. It works offline, from any folder.",
    )
    v.add_argument("file", metavar="FILE", help="a replay (arena play --replay, replay fetch)")
    v.add_argument(
        "-o",
        "--out",
        metavar="OUT.html",
        help="where to write the page (default: FILE with .html instead of .json)",
    )
    v.add_argument("--open", action="store_true", help="open the page in the web browser")
    v.set_defaults(run=run_view)


def run_view(args: argparse.Namespace) -> int:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.replay import ReplayError, load_replay
    from arena.viewer.steps import ReplayUnavailable

    out = Path(args.out) if args.out else Path(args.file).with_suffix(".html")
    if out.resolve() == Path(args.file).resolve():
        raise ReplayError(f"{out} is the replay itself; name another file with -o")
    doc = load_replay(args.file)
    try:
        page = _drawn(doc)
    except ReplayUnavailable as exc:
        raise ReplayError(f"{args.file}: {exc}") from None
    out.write_text(page, encoding="utf-8")
    kib = len(page.encode()) / 1024
    stdout().print(
        f"{out}: {len(doc['decisions'])} decisions, {kib:.0f} KiB (one file, works offline)",
        markup=False,
    )
    if args.open and not webbrowser.open(out.resolve().as_uri()):
        print(f"arena: warning: no web browser found; open {out} yourself", file=sys.stderr)
    return EXIT_OK


def _drawn(doc: dict[str, Any]) -> str:
    """The page, under a progress bar on a terminal: a long match is thousands of pictures."""
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.viewer.offline import viewer_page

    if not sys.stderr.isatty():
        return viewer_page(doc)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        console=stderr(),
        transient=True,
    )
    with bar:
        task = bar.add_task("drawing the steps", total=len(doc.get("decisions") or []) + 1)
        return viewer_page(doc, progress=lambda n: bar.update(task, completed=n))
