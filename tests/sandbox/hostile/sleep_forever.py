"""Hostile bot: sleeps forever at its first decision."""

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
    time.sleep(10**6)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "sleep_forever"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
