"""``arena submit BOT_NAME PATH``: upload a new version of one of your bots through the API
and wait for its check and qualification match, with a spinner, then print the result."""

from __future__ import annotations

import argparse
import io
import json
import time
import zipfile
from pathlib import Path
from typing import Any

from arena.cli.shared import (
    EXIT_BAD_INPUT,
    EXIT_CHECK_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SYSTEM,
    Subcommands,
    stderr,
    stdout,
)
from arena.cli.site import Site, SiteError, Upload, site_command

#: A version's statuses (platform/bots/models.py VersionStatus) while the site works on it.
PENDING = {
    "checking": "its code is being checked",
    "uploaded": "checked; its qualification match is about to be made",
    "qualifying": "playing its qualification match",
}
#: Seconds between two looks at the version while waiting.
POLL_S = 1.0
#: Folders and files never sent when a folder is zipped (tools' caches, version control).
SKIPPED = {"__pycache__", ".git", ".hg", ".svn", ".venv", ".mypy_cache", ".pytest_cache"}


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "submit",
        help="upload a new version of your bot to the site and wait for its qualification",
        description="Upload PATH (a source file, a folder, zipped on the fly, or a .zip) as "
        "the next version of your bot BOT_NAME, then wait for the site to check it and play "
        "its qualification match, and print the result. A bot you do not have yet is created "
        "when --game says for which game.",
    )
    p.add_argument("name", metavar="BOT_NAME", help="the name of your bot on the site")
    p.add_argument("path", metavar="PATH", help="the bot: a source file, a folder or a .zip")
    p.add_argument("--game", help="the bot's game: needed to create it, or to tell two apart")
    p.add_argument("--lang", help="the language, when the files could be several languages'")
    p.add_argument(
        "--no-wait", action="store_true", help="return once the upload is stored, without waiting"
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=900.0,
        metavar="S",
        help="give up waiting after S seconds (default 900)",
    )
    p.add_argument("--json", action="store_true", help="print the version as JSON")
    p.set_defaults(run=run)


@site_command
def run(args: argparse.Namespace) -> int:
    filename, data = bot_file(Path(args.path))
    site = Site.logged_in()
    bot = find_or_create_bot(site, args.name, args.game)
    fields = {"language": args.lang} if args.lang else {}
    try:
        version = site.call(
            "POST",
            f"/api/bots/{bot['id']}/versions/",
            upload=Upload("code", filename, data),
            fields=fields,
        )
    except SiteError as exc:
        raise SiteError(f"upload refused: {exc}", exc.exit_code) from None
    label = f"{bot['name']} v{version['number']}"
    if not args.json:
        stdout().print(
            f"uploaded {label} ({bot['game']}, {version['language']}, "
            f"{version['size_bytes']} bytes) to {site.url}",
            markup=False,
        )
    if not args.no_wait:
        try:
            version = wait_for(site, bot["id"], version, label, args.timeout)
        except KeyboardInterrupt:
            raise SiteError(
                f"stopped waiting; the site goes on with {label}: `arena bots` shows how it ends",
                EXIT_INTERRUPTED,
            ) from None
    return report(version, label, as_json=args.json, waited=not args.no_wait)


def bot_file(path: Path) -> tuple[str, bytes]:
    """The file to upload: a source file or a .zip as it is, a folder zipped."""
    if path.is_dir():
        return f"{path.resolve().name or 'bot'}.zip", zip_folder(path)
    if not path.is_file():
        raise SiteError(f"{path}: no such file or folder", EXIT_BAD_INPUT)
    return path.name, path.read_bytes()


def zip_folder(folder: Path) -> bytes:
    """The folder's files (its top at the zip's top) as a zip, the same bytes for the same
    files: an unchanged folder is refused as identical to the version it already is."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(folder.rglob("*")):
            rel = file.relative_to(folder)
            if any(part in SKIPPED for part in rel.parts) or not file.is_file():
                continue
            info = zipfile.ZipInfo(rel.as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if file.stat().st_mode & 0o111 else 0o644) << 16
            zf.writestr(info, file.read_bytes())
    return buffer.getvalue()


def my_bots(site: Site, **query: str) -> list[dict[str, Any]]:
    return site.get_all("/api/bots/", {"mine": "true", **query})


def find_bot(site: Site, name: str, game: str | None) -> dict[str, Any] | None:
    """Your bot of that name (and game); a clear error when the name is ambiguous."""
    found = [b for b in my_bots(site, search=name) if b["name"] == name]
    if game:
        found = [b for b in found if b["game"] == game]
    if len(found) > 1:
        games = ", ".join(sorted(b["game"] for b in found))
        raise SiteError(f"you have bots named {name!r} in {games}: add --game", EXIT_BAD_INPUT)
    return found[0] if found else None


def check_game(site: Site, game: str | None) -> None:
    """A clear error for a ``--game`` the site has not (its lists would only come back empty)."""
    if game is None:
        return
    slugs = [g["slug"] for g in site.get_all("/api/games/")]
    if game not in slugs:
        raise SiteError(
            f"{site.url} has no game {game!r} (games: {', '.join(slugs)})", EXIT_BAD_INPUT
        )


def find_or_create_bot(site: Site, name: str, game: str | None) -> dict[str, Any]:
    check_game(site, game)
    bot = find_bot(site, name, game)
    if bot is not None:
        return bot
    if not game:
        games = ", ".join(g["slug"] for g in site.get_all("/api/games/"))
        raise SiteError(
            f"you have no bot named {name!r} on {site.url}: add --game GAME to create it "
            f"(games: {games})",
            EXIT_BAD_INPUT,
        )
    try:
        created = site.call("POST", "/api/bots/", body={"game": game, "name": name})
    except SiteError as exc:
        raise SiteError(f"cannot create bot {name!r}: {exc}", exc.exit_code) from None
    stderr().print(f"created bot {name!r} for {game}", markup=False)
    return dict(created)


def wait_for(
    site: Site, bot_id: int, version: dict[str, Any], label: str, timeout: float
) -> dict[str, Any]:
    """Look at the version until it leaves the pending statuses, with a spinner on stderr."""
    deadline = time.monotonic() + timeout
    with stderr().status(f"{label}: {PENDING.get(version['status'], version['status'])}") as shown:
        while version["status"] in PENDING:
            if time.monotonic() > deadline:
                raise SiteError(
                    f"{label} is still {version['status']} after {timeout:g} s; "
                    "`arena bots` shows how it ends"
                )
            time.sleep(POLL_S)
            versions = site.get(f"/api/bots/{bot_id}/versions/")
            version = next((v for v in versions if v["id"] == version["id"]), version)
            shown.update(f"{label}: {PENDING.get(version['status'], version['status'])}")
    return version


def report(version: dict[str, Any], label: str, *, as_json: bool, waited: bool) -> int:
    status = version["status"]
    code = {"active": EXIT_OK, "failed": EXIT_CHECK_FAILED, "waiting_sandbox": EXIT_SYSTEM}
    exit_code = code.get(status, EXIT_OK if not waited else EXIT_SYSTEM)
    if as_json:
        print(json.dumps(version, indent=1))
        return exit_code
    reason = version.get("status_reason") or ""
    # Plain prints: the reason and the bot's stderr are the site's text, shown as they are.
    if status == "active":
        print(f"{label} qualified: it plays on the ladder now")
    elif status == "failed":
        print(f"{label} failed: {reason or 'no reason given'}")
        if version.get("failure_stderr"):
            print("its stderr in that match:")
            print(version["failure_stderr"].rstrip("\n"))
    elif status == "waiting_sandbox":
        print(f"{label} is waiting for a sandbox: {reason}")
    else:
        print(f"{label}: {PENDING.get(status, status)}")
    return exit_code
