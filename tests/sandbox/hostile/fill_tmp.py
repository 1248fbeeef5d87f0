"""Hostile bot: fills /tmp with files, reports how far it got, then exits 3."""

import json
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    # files of 4 MB (under the file-size limit), until /tmp itself is full
    total = 0
    try:
        for i in range(100000):
            with open(f"/tmp/fill{i}", "wb") as f:
                for _ in range(4):
                    f.write(b"x" * (1 << 20))
                    total += 1 << 20
    except OSError as e:
        log(f"fill stopped after {total >> 20} MB: {e}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "fill_tmp"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
