"""Every ``arena ...`` command that the README, the docs and the site's pages show a newcomer
is accepted by the real command line parser: examples must not drift from the CLI."""

from __future__ import annotations

import re
import shlex

import pytest

from arena.cli import build_parser
from tests.conftest import REPO

SOURCES = [
    REPO / "README.md",
    REPO / "CONTRIBUTING.md",
    *sorted((REPO / "docs").glob("*.md")),
    REPO / "arena" / "bot-protocol.md",
    *sorted((REPO / "games").glob("*/RULES.md")),
    *sorted((REPO / "platform").glob("*/templates/**/*.html")),
]
# A command line: at the start of a line (after a prompt, a venv path or <pre>), or inside
# <code>; it may go on over "\" line breaks and stops at a comment or a tag.
COMMAND = re.compile(
    r"(?:^[ \t]*(?:\$ |<span class=\"prompt\">\$</span> |<pre>|\.venv/bin/)?|<code>)"
    r"arena ((?:games|play|tournament|replay|new-bot|login|logout|submit|bots|matches)\b"
    r"[^\n#<`\\]*(?:\\\n[^\n#<`\\]*)*)",
    re.MULTILINE,
)


def documented_commands() -> list[tuple[str, str]]:
    found = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for m in COMMAND.finditer(text):
            line = re.sub(r"\\\n\s*", " ", m.group(1)).strip()
            line = re.sub(r"\{\{[^}]*\}\}", "trnd", line)  # template variables
            line = line.replace("&amp;", "&").split("&&")[0].split("|")[0].strip()
            # a lone subcommand in prose ("start with arena new-bot") is a mention
            if " " in line and "..." not in line and "[" not in line:
                found.append((path.relative_to(REPO).as_posix(), line))
    return found


COMMANDS = documented_commands()


def test_the_docs_show_commands() -> None:
    pages = {page for page, _ in COMMANDS}
    assert "README.md" in pages
    assert any(page.startswith("platform/") for page in pages)
    assert any(line.startswith("new-bot") for _, line in COMMANDS)


@pytest.mark.parametrize(("page", "line"), COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_documented_command_parses(page: str, line: str) -> None:
    parser = build_parser()
    try:
        args = parser.parse_args(shlex.split(line))
    except SystemExit as exc:
        raise AssertionError(f"{page} shows `arena {line}`, which the CLI refuses") from exc
    # as many bots as the game seats (a re-run from a replay takes one: the replaced seat's)
    if line.startswith("play ") and args.from_replay is None:
        from games.registry import get_game

        game = get_game(args.game)
        assert game.min_players <= len(args.bots) <= game.max_players, (
            f"{page}: `arena {line}` seats {len(args.bots)} bots; {game.slug} takes "
            f"{game.min_players} to {game.max_players}"
        )
