"""Hostile bot: signals its parent and its process group (SIGKILL), then spins."""

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
    import signal

    for target in (os.getppid(), 1):
        try:
            os.kill(target, signal.SIGKILL)
            log(f"KILLED {target}")
        except OSError as e:
            log(f"cannot kill {target}: {e.strerror}")
    while True:
        pass


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "signal_parent"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
