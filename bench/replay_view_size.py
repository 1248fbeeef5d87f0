"""The offline replay viewer (``arena replay view``): file size and time to write it, per game.

    python bench/replay_view_size.py [--seeds 10] [--browser] [--markdown]

For each game, the longest of ``--seeds`` seeded matches between its built-in bots with the
most seats the game takes (up to 5), and a TRND match of five random bots played to its
round cap (the longest a real match gets): its replay's size, its steps' JSON (what the site serves
one request at a time, SVG pictures included), the HTML file the command writes (every step
embedded, gzip and base64, seat views included) and the time to write it. ``--browser`` also
opens each file in Debian's chromium (``/usr/bin/chromium``, through Playwright, offline) and
times the load up to the last step drawn.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from arena.contract import builtin_bot
from arena.referee import run_match
from arena.viewer.offline import viewer_page
from arena.viewer.steps import all_steps
from games import registry


def longest_match(slug: str, seeds: int) -> dict[str, Any]:
    game = registry.get_game(slug)
    names = list(registry.bots(slug))
    players = min(game.max_players, 5)
    bots = [builtin_bot(names[i % len(names)]) for i in range(players)]
    replays = [run_match(slug, bots, seed=seed).replay for seed in range(1, seeds + 1)]
    return max(replays, key=lambda r: len(r["decisions"]))


def measure(replay: dict[str, Any]) -> dict[str, Any]:
    start = time.perf_counter()
    page = viewer_page(replay)
    written = time.perf_counter() - start
    steps_json = sum(len(json.dumps(s, separators=(",", ":"))) for s, _ in all_steps(replay))
    return {
        "page": page,
        "seats": len(replay["seats"]),
        "decisions": len(replay["decisions"]),
        "replay_kib": len(json.dumps(replay, separators=(",", ":"))) / 1024,
        "steps_mib": steps_json / 1024 / 1024,
        "html_kib": len(page.encode()) / 1024,
        "write_s": written,
    }


def open_times(pages: dict[str, tuple[str, int]]) -> dict[str, float]:
    """Seconds from opening each file (offline) to its last step drawn."""
    from playwright.sync_api import sync_playwright

    found = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for i, (slug, (page_text, total)) in enumerate(pages.items()):
            path = Path(folder) / f"{i}.html"
            path.write_text(page_text, encoding="utf-8")
            context = browser.new_context(offline=True)
            tab = context.new_page()
            start = time.perf_counter()
            tab.goto(path.as_uri())
            tab.keyboard.press("End")
            tab.locator('#replay [data-field="step"]').filter(has_text=str(total)).wait_for()
            tab.locator('#replay [data-go="next"][disabled]').wait_for(state="attached")
            found[slug] = time.perf_counter() - start
            context.close()
        browser.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = {slug: measure(longest_match(slug, args.seeds)) for slug in registry.slugs()}
    # the longest a real match gets: random TRND bots rarely reach the target, so play to the
    # 60-round cap (thousands of decisions)
    rows["trnd, 5 random bots"] = measure(
        run_match("trnd", [builtin_bot("random")] * 5, seed=1).replay
    )
    opened = {}
    if args.browser:
        opened = open_times({s: (r["page"], r["decisions"]) for s, r in rows.items()})
    head = ["game", "seats", "decisions", "replay", "steps as JSON", "HTML file", "written in"]
    head += ["opened to last step"] if opened else []
    lines = []
    for slug, r in rows.items():
        line = [slug, str(r["seats"]), str(r["decisions"]), f"{r['replay_kib']:.0f} KiB"]
        line += [f"{r['steps_mib']:.1f} MiB", f"{r['html_kib']:.0f} KiB", f"{r['write_s']:.2f} s"]
        line += [f"{opened[slug]:.2f} s"] if opened else []
        lines.append(line)
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for line in lines:
            print("| " + " | ".join(line) + " |")
        return
    table = Table(*head)
    for line in lines:
        table.add_row(*line)
    Console().print(table)


if __name__ == "__main__":
    main()
