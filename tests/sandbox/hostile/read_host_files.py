"""Hostile bot: reads host files (a root-only canary, /etc/shadow,
/proc/1/environ) and prints them."""

import json
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def attack(msg):
    import glob

    canaries = glob.glob("/tmp/meeple-hostile-secret*") + glob.glob(
        "/var/tmp/meeple-hostile-secret*"
    )
    for path in [
        *canaries,
        "/tmp/meeple-hostile-secret",
        "/etc/shadow",
        "/proc/1/environ",
        "/root/.bash_history",
    ]:
        try:
            with open(path, "rb") as f:
                log(f"READ {path}: {f.read(4000)!r}")
        except OSError as e:
            log(f"cannot read {path}: {e.strerror}")
    sys.exit(3)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready", "name": "read_host_files"})
    elif msg["type"] == "act":
        attack(msg)
        say({"action_index": 0, "turn": msg["turn"]})
    elif msg["type"] == "end":
        break
