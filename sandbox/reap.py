"""Remove what dead workers left behind: ``python -m sandbox.reap [--max-age-hours H]``.

Run it from cron or Celery beat on every worker host (e.g. every 10 minutes). It removes bot
containers whose worker process on this host is gone or that are older than the age cap, and
kills processes of free process-backend pool uids, and deletes prepared bot copies and warm-pool
folders older than the age cap. Matches in progress are left alone.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time

from sandbox import uids
from sandbox.code import bot_dir_base
from sandbox.docker import DockerSandbox
from sandbox.pool_slot import SLOT_PREFIX


def reap_orphans(max_age_hours: float = 6.0) -> dict[str, int]:
    """Clean both backends; returns what was removed per backend."""
    out = {
        "process": uids.reap_free() if uids.available() else 0,
        "docker": 0,
        "bot_dirs": remove_old_bot_dirs(max_age_hours * 3600),
    }
    try:
        sb = DockerSandbox()
        sb.client.ping()
        out["docker"] = sb.reap_orphans(max_age_s=max_age_hours * 3600)
    except Exception:  # no engine or SDK here: nothing to reap
        pass
    return out


def remove_old_bot_dirs(max_age_s: float) -> int:
    """Delete ``prepare_bot`` copies (``bot-*`` in the bot folder) and warm-pool slots
    (``pool-*``: a container's code and FIFO folders) not touched for ``max_age_s``: left by a
    referee or worker that died before cleaning up. A live pool replaces its containers long
    before (idle ones after ``WarmPool.max_idle_s``, 30 minutes; a reused one after
    ``max_life_s``, an hour)."""
    n = 0
    cutoff = time.time() - max_age_s
    base = bot_dir_base()
    for d in [*base.glob("bot-*"), *base.glob(f"{SLOT_PREFIX}*")]:
        try:
            if d.is_dir() and not d.is_symlink() and d.stat().st_mtime < cutoff:
                shutil.rmtree(d)
                n += 1
        except OSError:
            continue
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sandbox.reap", description=__doc__)
    ap.add_argument("--max-age-hours", type=float, default=6.0)
    args = ap.parse_args(argv)
    done = reap_orphans(args.max_age_hours)
    print(
        f"removed {done['docker']} bot containers and {done['bot_dirs']} old bot copies, "
        f"cleaned {done['process']} sandbox uids"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
