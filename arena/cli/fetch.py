"""``arena replay fetch MATCH_ID``: download a match's replay from the site, with your own
bots' logs when you are logged in and own a seat (the site adds only those)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from arena.cli.shared import EXIT_BAD_INPUT, EXIT_OK, Subcommands, stdout
from arena.cli.site import Site, SiteError, load_credentials, site_command


def register_fetch(actions: Subcommands) -> None:
    f = actions.add_parser(
        "fetch",
        help="download a match's replay from the site",
        description="Download the replay of a match from the site you are logged in to "
        "(anyone may fetch a replay; the logs of your own seats come with it). "
        "`arena replay verify` checks the file.",
    )
    f.add_argument(
        "match_id",
        metavar="MATCH_ID",
        type=_match_id,
        help="the match's number (`arena matches` lists them; its page is /matches/MATCH_ID/)",
    )
    f.add_argument(
        "-o", "--output", metavar="FILE", help="where to write it (default match-MATCH_ID.json)"
    )
    f.add_argument("--url", help="the site (default: the one you logged in to, or $ARENA_URL)")
    f.set_defaults(run=run_fetch)


def _match_id(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a match id is a positive number, not {text!r}")
    return int(text)


@site_command
def run_fetch(args: argparse.Namespace) -> int:
    site = _site(args.url)
    try:
        doc = site.get(f"/api/matches/{args.match_id}/replay/")
    except SiteError as exc:
        if exc.status == 404:
            raise SiteError(
                f"{site.url} has no match {args.match_id}, or no replay of it yet ({exc})",
                EXIT_BAD_INPUT,
                404,
            ) from None
        raise
    if not isinstance(doc, dict) or "decisions" not in doc:
        raise SiteError(f"{site.url} answered no replay for match {args.match_id}", EXIT_BAD_INPUT)
    path = Path(args.output or f"match-{args.match_id}.json")
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    stdout().print(
        f"wrote {path} ({doc.get('game')}, {len(doc['decisions'])} decisions{_logs(doc)})",
        markup=False,
    )
    return EXIT_OK


def _site(url: str | None) -> Site:
    """Logged in: the stored site and token; else ``--url`` (or $ARENA_URL) anonymously."""
    creds = load_credentials()
    if creds is not None and (url is None or Site(url).url == creds.url):
        return Site(creds.url, creds.token)
    if url:
        return Site(url)
    if os.environ.get("ARENA_URL"):
        return Site(os.environ["ARENA_URL"])
    raise SiteError(
        "not logged in: run `arena login URL` first (your bots' logs come with the replay), "
        "or give the site with --url URL (the public replay)",
        EXIT_BAD_INPUT,
    )


def _logs(doc: dict[str, Any]) -> str:
    """Which seats' logs came with the replay (the site fills in only the caller's)."""
    logs = doc.get("logs")
    if not isinstance(logs, list):
        return "; no logs"
    seats = [str(i) for i, text in enumerate(logs) if text]
    return f"; logs of seat {', '.join(seats)}" if seats else "; no logs of yours"
