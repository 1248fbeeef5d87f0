"""Hostile bot: connects to a TEST-NET address (192.0.2.1, never routed) and resolves a name."""

import json
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    import socket

    try:
        socket.create_connection(("192.0.2.1", 80), timeout=1)
        log("CONNECTED 192.0.2.1")
    except OSError as e:
        log(f"no connection to 192.0.2.1: {e}")
    try:
        addr = socket.gethostbyname("example.com")
        log(f"RESOLVED {addr}")
    except OSError as e:
        log(f"no name resolution: {e}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "net_outside"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
