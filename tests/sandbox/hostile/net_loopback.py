"""Hostile bot: connects to the host loopback (a listener the test opened)
and to the Docker bridge."""

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

    for host, port in [("127.0.0.1", 47011), ("172.17.0.1", 47011), ("::1", 47011)]:
        try:
            s = socket.create_connection((host, port), timeout=1)
            s.sendall(b"pwned")
            log(f"CONNECTED {host}:{port}")
        except OSError as e:
            log(f"no connection to {host}:{port}: {e}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "net_loopback"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
