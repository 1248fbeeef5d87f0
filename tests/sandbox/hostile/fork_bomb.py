"""Hostile bot: forks without end (children fork too), then never answers."""

import json
import os
import sys
import time


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    n = 0
    told = False
    while True:
        try:
            if os.fork() == 0:
                told = True  # children bomb too, silently
            else:
                n += 1
        except OSError as e:
            if not told:
                log(f"fork refused after {n}: {e.strerror}")
                told = True
            time.sleep(0.01)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "fork_bomb"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
