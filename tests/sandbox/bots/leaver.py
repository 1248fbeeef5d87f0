"""A bot for the reuse tests (test_pool_reuse.py): first says what it sees of earlier matches
in its container (other processes, files in its writable places, System V IPC, its
environment) and whether it can reach the supervisor that resets the container; then leaves
all it can behind (files, a folder it locks, a FIFO held by a daemonised sleeper, shared
memory, a message queue, an environment variable) and waits for the end of its input."""

import ctypes
import json
import os
import sys
import time

ME, PARENT = os.getpid(), os.getppid()
WRITE = os.O_WRONLY | os.O_NONBLOCK


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode()
    except OSError as e:
        return e.strerror


def attempt(how, what):
    try:
        how(what)
        return "done"
    except OSError as e:
        return e.strerror


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


def ipc_objects(kind):
    with open(f"/proc/sysvipc/{kind}") as fh:
        return len(fh.read().splitlines()) - 1


def seen():
    procs = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, ME, PARENT)]
    mqueue = sorted(os.listdir("/dev/mqueue")) if os.path.isdir("/dev/mqueue") else []
    return {
        "procs": {p: cmdline(p) for p in procs},
        "tmp": sorted(os.listdir("/tmp")),
        "shm": sorted(os.listdir("/dev/shm")),
        "mqueue": mqueue,
        "sysv": [ipc_objects(k) for k in ("shm", "msg", "sem")],
        "env": os.environ.get("LEFT_BEHIND"),
        "reach": {
            "ctl": attempt(lambda p: os.close(os.open(p, WRITE)), "/run/arena/ctl"),
            "ack": attempt(lambda p: os.close(os.open(p, WRITE)), "/run/arena/ack"),
            "environ": attempt(read, f"/proc/{PARENT}/environ"),
            "fds": attempt(os.listdir, f"/proc/{PARENT}/fd"),
            "mem": attempt(read, f"/proc/{PARENT}/mem"),
        },
    }


def leave():
    with open("/tmp/left-file", "w") as fh:
        fh.write("x")
    os.mkdir("/tmp/locked")
    with open("/tmp/locked/f", "w") as fh:
        fh.write("y")
    os.chmod("/tmp/locked", 0)
    with open("/dev/shm/left-shm", "w") as fh:
        fh.write("x")
    attempt(lambda p: os.close(os.open(p, os.O_CREAT | os.O_RDWR, 0o600)), "/dev/mqueue/left")
    os.mkfifo("/tmp/left-fifo")
    shm = ctypes.CDLL(None).shmget(0x5EED, 4096, 0o1000 | 0o600)  # IPC_CREAT
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.open("/tmp/left-fifo", os.O_RDWR)
            while True:
                time.sleep(0.05)
        os._exit(0)
    os.environ["LEFT_BEHIND"] = "1"
    time.sleep(0.3)
    return {"left": shm >= 0, "sleeper": len([p for p in os.listdir("/proc") if p.isdigit()])}


print(json.dumps(seen()), flush=True)
print(json.dumps(leave()), flush=True)
sys.stdin.read()
