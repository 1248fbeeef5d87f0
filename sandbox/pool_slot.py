"""A warm container's slot: its folder on the host (an empty ``code/`` bind-mounted read-only at
``/bot``, an ``io/`` folder of FIFOs at ``/run/arena``), the supervisor it runs
(``sandbox.pool_supervisor``), and putting the bot's code in at its first match.

Why a host folder and not ``put_archive``: the engine (20.10) refuses to write into a
read-only container's tmpfs (measured: HTTP 500), and a loader that unpacked code sent over
stdin into ``/tmp`` would leave the code writable by the bot. The folder needs nothing the cold
path does not already need (``ARENA_BOT_DIR`` visible to the engine at the same path).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from sandbox.code import bot_dir_base
from sandbox.docker_spec import BOT_UID, LABEL

#: slot folders are ``pool-*`` right under the bot folder (the reaper deletes old ones)
SLOT_PREFIX = "pool-"
#: where a pooled container sees its FIFOs (a read-only bind: a FIFO opens on one all the same)
IO_DIR = "/run/arena"
#: The program each warm container runs (``sandbox.pool_supervisor``, sent as its source:
#: ``python3 -I -S -c``, isolated and without site, about 10 ms to start). It starts each match's
#: bot as its child and resets the container between matches of one bot version.
SUPERVISOR = (Path(__file__).with_name("pool_supervisor.py")).read_text()
LOADER_COMMAND = ["python3", "-I", "-S", "-c", SUPERVISOR]
#: the bot's FIFOs, made afresh for every match; the supervisor's two, made once
BOT_FIFOS = ("stdin", "stdout", "stderr")
CONTROL_FIFOS = ("ctl", "ack")


def make_slot_folder() -> Path:
    """A fresh slot folder with an empty ``code/`` and an ``io/`` of five FIFOs owned by the
    bot (its stdin, stdout and stderr, the supervisor's ``ctl`` and ``ack``). The slot is
    0711: the engine and the bot reach its parts by name, other users of the host cannot list
    it (so cannot find the FIFOs)."""
    folder = Path(tempfile.mkdtemp(prefix=SLOT_PREFIX, dir=bot_dir_base()))
    try:
        os.chmod(folder, 0o711)  # nosec
        (folder / "code").mkdir(mode=0o755)
        os.chmod(folder / "code", 0o755)  # nosec: the bot reads its code, read-only
        io = folder / "io"
        io.mkdir(mode=0o711)
        os.chmod(io, 0o711)  # nosec
        for name in BOT_FIFOS + CONTROL_FIFOS:
            os.mkfifo(io / name, 0o600)
            give_to_bot(io / name)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def give_to_bot(path: Path) -> None:
    """Make a FIFO the bot's alone: owned by the bot's uid, mode 0600. Without root (no
    chown) it is left 0666 inside the slot's unlistable 0711 folder."""
    try:
        os.chown(path, BOT_UID, BOT_UID)
    except PermissionError:
        os.chmod(path, 0o666)  # nosec: reachable only through the random slot name
    else:
        os.chmod(path, 0o600)


def renew_bot_fifos(io: Path) -> None:
    """New stdin, stdout and stderr FIFOs for the next match in a reused container: whatever
    held the old ones (nothing, after a clean reset) is not connected to the new."""
    for name in BOT_FIFOS:
        (io / name).unlink(missing_ok=True)
        os.mkfifo(io / name, 0o600)
        give_to_bot(io / name)


def seal(path: Path) -> None:
    """Make a FIFO that both ends hold open unopenable from now on (mode 0, root's where we
    can): the bot, the same uid as the supervisor, cannot open its control channel. The
    container cannot change it back (the folder is a read-only mount there)."""
    with contextlib.suppress(PermissionError):
        os.chown(path, 0, 0)
    os.chmod(path, 0)


def put_code(src: Path, dest: Path) -> None:
    """Put the prepared bot into a pooled container's (empty, host-side) code folder: hard
    links where the file system allows (the prepared copy is a snapshot of our own), else
    copies. Regular files, folders and links as they are; the container sees them read-only."""
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        target = dest if rel == "." else dest / rel
        for d in list(dirnames):
            if os.path.islink(os.path.join(dirpath, d)):
                os.symlink(os.readlink(os.path.join(dirpath, d)), target / d)
                dirnames.remove(d)
            else:
                (target / d).mkdir(mode=0o755)
                os.chmod(target / d, stat.S_IMODE(os.stat(os.path.join(dirpath, d)).st_mode))
        for name in filenames:
            s, t = os.path.join(dirpath, name), target / name
            try:
                os.link(s, t, follow_symlinks=False)
            except OSError:
                shutil.copy2(s, t, follow_symlinks=False)


def remove_slot_folder(container: Any) -> None:
    """A warm-pool container's slot folder (its code and FIFOs), once the container is gone:
    only a ``pool-*`` folder right under the bot folder, found through the container's mounts."""
    if container.labels.get(f"{LABEL}.pool") != "1":
        return
    base = bot_dir_base().resolve()
    for m in container.attrs.get("Mounts", []):
        folder = Path(m.get("Source", "")).parent
        if folder.parent == base and folder.name.startswith(SLOT_PREFIX):
            shutil.rmtree(folder, ignore_errors=True)
            return
