"""The program a warm container runs (``python3 -I -S -c``, as the bot's user, under tini): it
starts each match's bot as its child, says how the bot ended, and resets the container between
two matches of the same bot version (``sandbox.pool``). The worker never runs it (it imports
its constants): ``sandbox.pool_slot`` sends its source into the container.

Channels, FIFOs in ``/run/arena`` (a read-only bind of the slot's ``io`` folder):

- ``ctl`` (worker -> here): ``reset``, one line per match end.
- ``ack`` (here -> worker): ``SUPERVISOR_HELLO`` once; ``end <code>`` when a bot ends (its exit
  status, or minus the signal, then 1 if the container's memory cgroup OOM-killed something
  meanwhile), after killing whatever it left running, as a cold container's end does;
  ``clean`` or ``dirty <why>`` after each reset.
- ``stdin``, ``stdout``, ``stderr``: the bot's, made afresh by the worker for every match. A
  *loader* child (a fork of this process) opens them, says ``LOADER_HELLO`` on stdout, waits
  for the bot's command on stdin (one JSON line: the language's run command for the entry,
  ``sandbox.docker_spec.run_command``) and execs it in ``/bot``: the same command, user,
  folder and environment as a cold container's bot.

Why the bot cannot fake a reset though it runs as the same uid: this process is not dumpable
(no ptrace, no ``/proc/<pid>/fd``, ``mem`` or ``environ`` for other processes without
capabilities, and the container has none), it ignores every signal it can (SIGKILL and SIGSTOP
end or freeze it: the container then stops, or the reset times out, and the worker removes
the container), the worker makes ``ctl`` and ``ack`` unopenable (mode 0, on a read-only mount)
once both ends are open, and nothing it holds crosses into the bot (close-on-exec, closed in
the loader before the exec). The worker also checks what it can see from the host.

A reset: ``kill(-1, SIGKILL)`` (every process of this uid but this one and the namespace's
init) until no other process is left in ``/proc`` (orphans are reaped by tini); then it empties
``/tmp``, ``/dev/shm`` and ``/dev/mqueue``, removes System V IPC objects, checks all of that is
empty, and only then starts the next loader.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time

IO = "/run/arena"
SUPERVISOR_HELLO = b"meeple-arena-supervisor-ready\n"
LOADER_HELLO = b"meeple-arena-pool-ready\n"
WIPED = ("/tmp", "/dev/shm", "/dev/mqueue")
KILL_DEADLINE_S = 3.0
OOM_FILES = ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events")
IPC = (("shm", "shmctl"), ("msg", "msgctl"), ("sem", "semctl"))
IPC_RMID = 0


def non_dumpable() -> None:
    """PR_SET_DUMPABLE 0: processes of our uid cannot ptrace us or open our /proc files."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(4, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")


def oom_kills() -> int:
    for path in OOM_FILES:
        try:
            with open(path) as fh:
                for line in fh:
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
        except OSError:
            continue
    return 0


def others() -> list[int]:
    """The processes of this pid namespace other than its init and this one."""
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)]


def reap() -> list[tuple[int, int]]:
    """Our ended children, with their exit codes (minus the signal for a kill)."""
    ended: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended.append((pid, os.waitstatus_to_exitcode(status)))


def loader() -> None:
    """In the forked child: the bot's FIFOs as stdin/stdout/stderr, then exec the bot."""
    for sig in signal.valid_signals():  # ignored dispositions would cross the exec
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            with contextlib.suppress(OSError, ValueError):
                signal.signal(sig, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    os.setsid()
    w = os.open(f"{IO}/stdin", os.O_RDWR)  # never EOF while we wait for the command
    o = os.open(f"{IO}/stdout", os.O_WRONLY)
    e = os.open(f"{IO}/stderr", os.O_WRONLY)
    os.write(o, LOADER_HELLO)
    line = b""
    while not line.endswith(b"\n"):  # one byte at a time: the referee's start stays unread
        byte = os.read(w, 1)
        if not byte:
            os._exit(70)
        line += byte
    i = os.open(f"{IO}/stdin", os.O_RDONLY)
    os.close(w)  # the worker holds the writing end now: the bot sees the end of its input
    for fd, std in ((i, 0), (o, 1), (e, 2)):
        os.dup2(fd, std)
        os.close(fd)
    os.chdir("/bot")
    argv = json.loads(line)
    if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)):
        os._exit(70)
    os.execvp(argv[0], argv)


def spawn(keep: tuple[int, ...]) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            for fd in keep:
                os.close(fd)
            loader()
        finally:
            os._exit(70)
    return pid


def kill_all(ended: list[tuple[int, int]]) -> str:
    """SIGKILL every other process of this uid until none is left (our ended children go to
    ``ended``); '' or why not."""
    deadline = time.monotonic() + KILL_DEADLINE_S
    while True:
        with contextlib.suppress(ProcessLookupError):
            os.kill(-1, signal.SIGKILL)
        ended += reap()
        left = others()
        if not left:
            return ""
        if time.monotonic() > deadline:
            return f"{len(left)} processes left"
        time.sleep(0.001)


def empty_dir(top: str) -> None:
    """Delete everything below ``top`` (all of it the bot's: it may have locked its folders)."""
    stack = [top]
    folders = []
    while stack:
        here = stack.pop()
        for entry in os.scandir(here):
            if entry.is_dir(follow_symlinks=False):
                os.chmod(entry.path, 0o700)
                stack.append(entry.path)
                folders.append(entry.path)
            else:
                os.unlink(entry.path)
    for folder in reversed(folders):
        os.rmdir(folder)


def drop_ipc() -> str:
    """Remove the IPC namespace's System V objects; '' or what is left."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    left = []
    for kind, call in IPC:
        path = f"/proc/sysvipc/{kind}"
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            ids = [int(row.split()[1]) for row in fh.readlines()[1:] if row.strip()]
        for ipc_id in ids:
            args = (ipc_id, IPC_RMID, None) if kind != "sem" else (ipc_id, 0, IPC_RMID)
            getattr(libc, call)(*args)
        with open(path) as fh:
            if len([row for row in fh.readlines()[1:] if row.strip()]):
                left.append(kind)
    return f"System V {', '.join(left)} left" if left else ""


def reset(ended: list[tuple[int, int]]) -> str:
    """Everything of the last match gone: '' when clean, else why not."""
    why = kill_all(ended)
    if why:
        return why
    for top in WIPED:
        if os.path.isdir(top):
            empty_dir(top)
            if os.listdir(top):
                return f"{top} not empty"
    return drop_ipc() or ("processes left" if others() else "")


def say(ack: int, text: str) -> None:
    os.write(ack, text.encode() + b"\n")


def serve(ctl: int, ack: int, wake: int) -> None:
    """Report the bot's end; reset on ``reset``. Runs until the container is removed."""
    child, oom0 = spawn((ctl, ack, wake)), oom_kills()
    pending = b""
    while True:
        ready = select.select([ctl, wake], [], [])[0]
        if wake in ready:
            while True:
                try:
                    if not os.read(wake, 64):
                        break
                except BlockingIOError:
                    break
        for pid, code in reap():
            if pid == child:
                # As in a cold container, whose init exits with its bot: what the bot left
                # running (a daemon holding its stdout) ends with it.
                kill_all([])
                say(ack, f"end {code} {int(oom_kills() > oom0)}")
                child = 0
        if ctl not in ready:
            continue
        data = os.read(ctl, 256)
        if not data:
            return
        pending += data
        while b"\n" in pending:
            command, pending = pending.split(b"\n", 1)
            if command != b"reset":
                continue
            ended: list[tuple[int, int]] = []
            try:
                why = reset(ended)
            except Exception as exc:  # anything unexpected: not clean
                why = f"{type(exc).__name__}: {exc}"
            for pid, code in ended + reap():
                if pid == child:
                    say(ack, f"end {code} {int(oom_kills() > oom0)}")
            if why:
                say(ack, f"dirty {why}")
                continue
            child, oom0 = spawn((ctl, ack, wake)), oom_kills()
            say(ack, "clean")


def main() -> None:
    # kill(-1) ends every process of our uid: never anywhere but a bot container (not root,
    # tini as our parent, our control FIFO mounted).
    if os.getuid() == 0 or os.getppid() != 1 or not os.path.exists(f"{IO}/ctl"):
        raise SystemExit("not in a warm bot container")
    non_dumpable()
    for sig in signal.valid_signals():
        if sig not in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD):
            with contextlib.suppress(OSError, ValueError):
                signal.signal(sig, signal.SIG_IGN)
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    ctl = os.open(f"{IO}/ctl", os.O_RDWR | os.O_CLOEXEC)  # RDWR: never EOF, never blocks
    ack = os.open(f"{IO}/ack", os.O_WRONLY | os.O_CLOEXEC)
    os.write(ack, SUPERVISOR_HELLO)
    serve(ctl, ack, wake_r)


if __name__ == "__main__":
    main()
