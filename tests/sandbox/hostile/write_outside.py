"""Hostile bot: tries to write outside /tmp: its own code, the root, /usr,
/etc, /var/tmp, the host /tmp."""

import json
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    targets = [
        "/bot/pwned",
        "pwned",
        "/pwned",
        "/usr/pwned",
        "/etc/pwned",
        "/var/tmp/meeple-hostile-pwned",
        "/tmp/meeple-hostile-pwned",
        "/root/meeple-hostile-pwned",
        "/dev/shm/meeple-hostile-pwned",
    ]
    for t in targets:
        try:
            with open(t, "w") as f:
                f.write("pwned")
            log(f"WROTE {t}")
        except OSError as e:
            log(f"refused {t}: {e.strerror}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "write_outside"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
