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

    targets = [(h, p) for p in range(47011, 47019) for h in ("127.0.0.1", "172.17.0.1", "::1")]
    for host, port in targets:
        try:
            s = socket.create_connection((host, port), timeout=0.2)
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
