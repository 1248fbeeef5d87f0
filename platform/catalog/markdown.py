"""Markdown files of the repository (a game's RULES.md, the bot protocol) as safe HTML.

One library renders (markdown-it-py, CommonMark plus tables, raw HTML off) and nh3 sanitises
what comes out, so a page shows the very file the repository holds: one source per text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import nh3
from markdown_it import MarkdownIt

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")

_TAGS = {
    "a", "blockquote", "br", "code", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li",
    "ol", "p", "pre", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "h2": {"id"}, "h3": {"id"}}


def render_markdown(text: str) -> str:
    """``text`` (Markdown) as sanitised HTML; level-2 and level-3 headings get ids for links."""
    html = nh3.clean(
        _MD.render(text),
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
    return re.sub(r"<(h[23])>(.*?)</\1>", _anchor, html)


def _anchor(match: re.Match[str]) -> str:
    tag, inner = match.group(1), match.group(2)
    slug = re.sub(r"[^a-z0-9]+", "-", re.sub(r"<[^>]+>", "", inner).lower()).strip("-")
    return f'<{tag} id="{slug}">{inner}</{tag}>'


def markdown_file(path: Path) -> str:
    """The file at ``path`` rendered (cached until the file changes)."""
    stat = path.stat()
    return _cached(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _cached(path: str, mtime_ns: int, size: int) -> str:
    return render_markdown(Path(path).read_text(encoding="utf-8"))
