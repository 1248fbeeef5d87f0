"""``arena login URL`` and ``arena logout``: get a site's API token once, keep it in the user's
config folder (arena/cli/site.py), forget it."""

from __future__ import annotations

import argparse
import getpass
import sys

from arena.cli.shared import EXIT_BAD_INPUT, EXIT_OK, Subcommands, stdout
from arena.cli.site import (
    Credentials,
    Site,
    SiteError,
    credentials_path,
    forget_credentials,
    save_credentials,
    site_command,
)


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "login",
        help="log in to a Meeple Arena site (stores an API token)",
        description="Exchange your user name and password for the site's API token and store "
        "it, readable by you only, in $XDG_CONFIG_HOME/meeple-arena/credentials.json (else "
        "~/.config/meeple-arena/). The password is never stored.",
    )
    p.add_argument("url", metavar="URL", help="the site, e.g. https://arena.example.org")
    p.add_argument("--username", "-u", help="your user name (asked when not given)")
    p.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from standard input (for scripts) instead of asking",
    )
    p.add_argument(
        "--token",
        help="store this API token (from the site's 'Use the API' page) instead of logging in",
    )
    p.set_defaults(run=run_login)

    out = sub.add_parser(
        "logout",
        help="forget the stored API token",
        description="Delete the stored credentials. The token itself stays valid on the site "
        "(it is the one token of your account, which your CI may use too).",
    )
    out.set_defaults(run=run_logout)


@site_command
def run_login(args: argparse.Namespace) -> int:
    site = Site(args.url)
    site.check()  # a wrong address is told before any password is asked
    if args.token:
        token, username = args.token.strip(), ""
        # Any authenticated list checks it: a wrong token is a 401.
        try:
            Site(site.url, token).get("/api/bots/", {"mine": "true"})
        except SiteError as exc:
            if exc.status != 401:
                raise
            raise SiteError(
                f"{site.url} refused the token: not one of its tokens (copy it again from the "
                "site's 'Use the API' page, or log in with --username NAME)",
                EXIT_BAD_INPUT,
                401,
            ) from None
    else:
        if args.password_stdin and not args.username:
            raise SiteError("--password-stdin needs --username NAME", EXIT_BAD_INPUT)
        username = args.username or _ask("User name: ")
        if args.password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        elif sys.stdin.isatty():
            password = getpass.getpass("Password: ")
        else:
            raise SiteError(
                "no terminal to ask the password on: use --password-stdin or --token",
                EXIT_BAD_INPUT,
            )
        token = _token(site, username, password)
    path = save_credentials(Credentials(site.url, token, username))
    who = f" as {username}" if username else ""
    stdout().print(f"logged in to {site.url}{who}; token stored in {path}", markup=False)
    return EXIT_OK


def _ask(prompt: str) -> str:
    try:
        answer = input(prompt).strip()
    except EOFError:
        answer = ""
    if not answer:
        raise SiteError("a user name is needed (or --username NAME)", EXIT_BAD_INPUT)
    return answer


def _token(site: Site, username: str, password: str) -> str:
    try:
        answer = site.call(
            "POST", "/api/auth/token/", body={"username": username, "password": password}
        )
    except SiteError as exc:
        if exc.exit_code == EXIT_BAD_INPUT and "does not look like" not in str(exc):
            raise SiteError(f"{site.url} refused the log-in: {exc}", EXIT_BAD_INPUT) from None
        raise
    token = answer.get("token") if isinstance(answer, dict) else None
    if not isinstance(token, str) or not token:
        raise SiteError(f"{site.url} answered the log-in with no token", EXIT_BAD_INPUT)
    return token


@site_command
def run_logout(_args: argparse.Namespace) -> int:
    if forget_credentials():
        stdout().print(f"logged out: {credentials_path()} deleted", markup=False)
    else:
        stdout().print("not logged in: nothing to forget", markup=False)
    return EXIT_OK
