"""Hostile bot: tries to become root, mount, chroot and load ptrace, then exits 3."""

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
    import ctypes

    for name, call in [
        ("setuid(0)", lambda: os.setuid(0)),
        ("chroot", lambda: os.chroot("/tmp")),
        ("setgroups", lambda: os.setgroups([0])),
    ]:
        try:
            call()
            log(f"ESCALATED {name}")
        except OSError as e:
            log(f"refused {name}: {e.strerror}")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0:
        log("ESCALATED mount")
    else:
        log(f"refused mount: errno {ctypes.get_errno()}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "privileges"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
