"""Hostile bot: writes a line far over the cap without a newline, then waits."""

import json
import sys
import time


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    chunk = "x" * 65536
    for _ in range(64):
        sys.stdout.write(chunk)
    sys.stdout.flush()
    time.sleep(10**6)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "huge_line"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
