"""Hostile bot: prints its whole environment."""

import json
import os
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    for k, v in os.environ.items():
        log(f"ENV {k}={v}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "read_env"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
