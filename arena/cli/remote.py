"""``arena bots`` and ``arena matches``: your bots on the site, and their recent matches with
the result and the rating change."""

from __future__ import annotations

import argparse
import json
from typing import Any
from urllib import parse

from rich.table import Table

from arena.cli.shared import EXIT_BAD_INPUT, EXIT_OK, Subcommands, cell, stdout
from arena.cli.site import Site, SiteError, site_command
from arena.cli.submit import check_game, find_bot, my_bots
from arena.contract import MatchKind

#: Why a match was played (the site's ``MatchKind``), as ``?kind=`` takes it.
KINDS = tuple(kind.value for kind in MatchKind)
#: Pages of 50 matches read at most while looking for ``--limit`` rows (``--lost`` skips some).
MAX_PAGES = 20


def register(sub: Subcommands) -> None:
    b = sub.add_parser(
        "bots",
        help="list your bots on the site",
        description="Your bots on the site you are logged in to: game, name, id, newest "
        "version and its status.",
    )
    b.add_argument("--game", help="only this game's bots")
    b.add_argument("--json", action="store_true", help="print the API's rows as JSON")
    b.set_defaults(run=run_bots)

    m = sub.add_parser(
        "matches",
        help="recent matches of your bots, with result and rating change",
        description="Recent finished matches of your bots (or of one), newest first: "
        "opponents, rank and score, and the Elo change of a rated match.",
    )
    m.add_argument("--bot", metavar="NAME", help="only this bot's matches")
    m.add_argument("--game", help="only this game's matches (and tells two bots of NAME apart)")
    m.add_argument(
        "--lost", action="store_true", help="only the matches your bot did not win (rank > 1)"
    )
    m.add_argument(
        "--kind",
        choices=[*KINDS, "all"],
        default="ladder",
        help="why the matches were played (default ladder; all: every kind)",
    )
    m.add_argument("--limit", type=int, default=20, metavar="N", help="at most N rows (default 20)")
    m.add_argument("--json", action="store_true", help="print the rows as JSON")
    m.set_defaults(run=run_matches)


@site_command
def run_bots(args: argparse.Namespace) -> int:
    site = Site.logged_in()
    check_game(site, args.game)
    bots = my_bots(site, **({"game": args.game} if args.game else {}))
    if args.json:
        print(json.dumps(bots, indent=1))
        return EXIT_OK
    if not bots:
        stdout().print(f"you have no bots on {site.url} yet: `arena submit NAME PATH --game GAME`")
        return EXIT_OK
    table = Table(title=f"Your bots on {site.url}")
    for col in ("id", "game", "name", "version", "status"):
        table.add_column(col, overflow="fold")
    for bot in bots:
        version = bot.get("latest_version")
        table.add_row(
            str(bot["id"]),
            bot["game"],
            bot["name"],
            f"v{version}" if version else "-",
            cell(bot.get("latest_status")),
        )
    stdout().print(table)
    return EXIT_OK


@site_command
def run_matches(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise SiteError("--limit wants a positive number", EXIT_BAD_INPUT)
    site = Site.logged_in()
    query: dict[str, str] = {"status": "finished"}
    if args.kind != "all":
        query["kind"] = args.kind
    if args.game:
        check_game(site, args.game)
        query["game"] = args.game
    if args.bot:
        bot = find_bot(site, args.bot, args.game)
        if bot is None:
            raise SiteError(f"you have no bot named {args.bot!r} on {site.url}", EXIT_BAD_INPUT)
        query["bot"], mine = str(bot["id"]), {bot["id"]}
    else:
        query["mine"], mine = "true", {b["id"] for b in my_bots(site)}
    rows = collect(site, query, mine, lost=args.lost, limit=args.limit)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        show(site, rows, args)
    return EXIT_OK


def collect(
    site: Site, query: dict[str, str], mine: set[int], *, lost: bool, limit: int
) -> list[dict[str, Any]]:
    """Rows (one per seat of yours) from the newest matches, following the cursor pages."""
    rows: list[dict[str, Any]] = []
    for _ in range(MAX_PAGES):
        page = site.get("/api/matches/", query)
        for match in page.get("results", []):
            for seat in match["seats"]:
                if seat["bot_id"] in mine:
                    row = as_row(site, match, seat)
                    if not lost or row["lost"]:
                        rows.append(row)
            if len(rows) >= limit:
                return rows[:limit]
        cursor = dict(parse.parse_qsl(parse.urlsplit(page.get("next") or "").query))
        if "cursor" not in cursor:
            break
        query = {**query, "cursor": cursor["cursor"]}
    return rows[:limit]


def as_row(site: Site, match: dict[str, Any], seat: dict[str, Any]) -> dict[str, Any]:
    before, after = seat.get("elo_before"), seat.get("elo_after")
    rank = seat.get("rank")
    return {
        "match_id": match["id"],
        "url": f"{site.url}/matches/{match['id']}/",
        "game": match["game"],
        "kind": match.get("kind"),
        "finished_at": match.get("finished_at"),
        "bot": seat["bot"],
        "bot_id": seat["bot_id"],
        "version": seat["version"],
        "seat": seat["seat"],
        "rank": rank,
        "players": len(match["seats"]),
        "score": seat.get("score"),
        "status": seat.get("status"),
        "lost": rank is not None and rank > 1,
        "elo_before": before,
        "elo_after": after,
        "elo_change": None if before is None or after is None else round(after - before, 2),
        "opponents": [
            {k: s.get(k) for k in ("seat", "bot", "bot_id", "version", "rank", "score")}
            for s in match["seats"]
            if s["seat"] != seat["seat"]
        ],
    }


def show(site: Site, rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    what = "lost " if args.lost else ""
    kind = "" if args.kind == "all" else f"{args.kind} "
    if not rows:
        stdout().print(f"no {what}{kind}matches of your bots on {site.url}", markup=False)
        return
    table = Table(title=f"Recent {what}{kind}matches on {site.url}")
    for col in ("match", "finished", "game", "bot", "rank", "score", "opponents", "Δ elo"):
        table.add_column(col, overflow="fold")
    for r in rows:
        change = r["elo_change"]
        table.add_row(
            str(r["match_id"]),
            (r["finished_at"] or "-")[:16].replace("T", " "),
            r["game"],
            f"{r['bot']} v{r['version']}",
            f"{cell(r['rank'])}/{r['players']}",
            cell(r["score"]),
            ", ".join(
                f"{o['bot']} v{o['version']} (rank {cell(o['rank'])})" for o in r["opponents"]
            ),
            "-" if change is None else f"{change:+.1f}",
            style="red" if r["lost"] else None,
        )
    stdout().print(table)
    stdout().print(
        "`arena replay fetch MATCH_ID` downloads a match's replay (with your bot's logs)",
        markup=False,
    )
