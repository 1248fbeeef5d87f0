"""Hostile bot: floods stderr (tens of MB) and never answers."""

import json
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    chunk = "e" * 65536 + "\n"
    while True:
        sys.stderr.write(chunk)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "stderr_flood"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
