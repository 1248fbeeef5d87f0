"""Hostile bot: starts threads without end, then never answers."""

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
    import threading

    n = 0
    while True:
        try:
            threading.Thread(target=time.sleep, args=(10**6,), daemon=True).start()
            n += 1
        except (RuntimeError, MemoryError) as e:
            log(f"threads stopped at {n}: {e}")
            time.sleep(10**6)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "thread_bomb"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
