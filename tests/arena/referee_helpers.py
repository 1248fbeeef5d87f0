"""Helpers for the referee tests (a module of its own: test files import it by name)."""

from __future__ import annotations

from games import registry
from tests.conftest import descendants  # noqa: F401  re-exported for the referee tests

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
