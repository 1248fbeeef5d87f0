"""Helpers for the referee tests (a module of its own: test files import it by name)."""

from __future__ import annotations

import os
from pathlib import Path

from games import registry

BOT_TEMPLATE = """\
import json, os, sys, time
sys.stderr.write("pid=%d\\n" % os.getpid()); sys.stderr.flush()
acts = 0

def say(obj):
    sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()

def on_start(msg):
    say({{"type": "ready", "name": "test-bot"}})

def on_act(msg):
    say({{"action_index": 0, "turn": msg["turn"]}})

{behaviour}

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        on_start(msg)
    elif msg["type"] == "act":
        acts += 1
        on_act(msg)
    elif msg["type"] == "end":
        break
"""


def usable_games() -> list[str]:
    """Registered games whose package imports right now (others are being written)."""
    found = []
    for slug in registry.slugs():
        try:
            registry.get_game(slug)
            registry.bots(slug)
        except Exception:
            continue
        found.append(slug)
    return found


def seats_for(slug: str) -> int:
    g = registry.get_game(slug)
    return max(2, g.min_players)


def descendants(root: int | None = None) -> set[int]:
    """Every live process (zombies included) below ``root`` (default: this one), by /proc."""
    root = os.getpid() if root is None else root
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after its last ")"
        parent[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier} - found
        found |= frontier
    return found
