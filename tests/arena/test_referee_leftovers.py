"""No process of a seat outlives its seat in the process backend (sandbox/process.py): a bot
whose children leave its session and process group (setsid, a second fork), ignore SIGTERM and
SIGHUP and sleep on, then times out; when the match returns, nothing runs under the seat's uid
(sandbox/uids.py: every process whose real uid is the seat's is killed, until none is left).

Also on a host without /bin/kill (Debian's slim image, the worker's, has none), played in a
mount namespace of its own where /bin/kill cannot be run: the uid's kill depended on that
program, raised without it, and the bot's daemons lived on after the match was recorded.
Needs root: only root gives each seat a uid of its own (and mounts)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from referee_helpers import seats_for

from sandbox import uids
from tests.conftest import REPO

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="per-seat uids need root")

#: Three daemons that ignore the polite signals, then a decision that never comes.
SCATTERS = """
        import signal

        def on_act(msg):
            for _ in range(3):
                if os.fork() == 0:
                    os.setsid()
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                    signal.signal(signal.SIGHUP, signal.SIG_IGN)
                    if os.fork() == 0:
                        while True:
                            time.sleep(600)
                    os._exit(0)
            sys.stderr.write("uid=%d\\n" % os.getuid()); sys.stderr.flush()
            time.sleep(600)
"""

#: Plays the match and says, the moment it returns, what still runs under the seat's uid.
PLAY = """
import json, re, sys
from arena.referee import TimeControl, run_match
from sandbox import uids
from sandbox.process import ProcessSandbox

game, bwrap, *bots = sys.argv[1:]
out = run_match(
    game, bots, seed=3, time=TimeControl(start_ms=30_000, move_ms=2000, bank_ms=0),
    sandbox=ProcessSandbox(use_bwrap=bwrap == "1"),
)
found = re.search(r"uid=(\\d+)", out.replay["logs"][0])
uid = int(found.group(1)) if found else None
print(json.dumps({
    "status": out.status, "error": out.error, "uid": uid,
    "faults": [f["kind"] for f in out.seats[0].faults],
    "left": uids.processes_of(uid) if uid is not None else None,
}))
"""


def _play(tmp_path: Path, game: str, bots: list[str], *, bwrap: bool, kill: bool) -> dict:
    command = [sys.executable, "-c", PLAY, game, "1" if bwrap else "0", *bots]
    if not kill:
        unrunnable = tmp_path / "no-kill"
        unrunnable.write_text("")  # mode 0644: exec'ing it fails as a missing program does
        mount = f'mount --bind {unrunnable} /bin/kill && exec "$@"'
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", mount, "-"]
        command += [sys.executable, "-c", PLAY, game, "1" if bwrap else "0", *bots]
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'platform'}"}
    done = subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kill", [True, False], ids=["kill-program", "no-kill-program"])
@pytest.mark.parametrize("bwrap", [True, False], ids=["bwrap", "plain"])
def test_a_timed_out_seat_leaves_no_process_of_its_uid(
    small_game: str, make_bot, tmp_path: Path, bwrap: bool, kill: bool
) -> None:
    if bwrap and not os.access("/usr/bin/bwrap", os.X_OK):
        pytest.skip("bubblewrap is not installed")
    if not kill and shutil.which("unshare") is None:
        pytest.skip("no unshare to hide the kill program")
    bots = [make_bot("scatters", SCATTERS)] + [make_bot("good")] * (seats_for(small_game) - 1)
    seen = _play(tmp_path, small_game, bots, bwrap=bwrap, kill=kill)
    try:
        assert seen["status"] == "finished", seen["error"]
        assert seen["faults"] == ["timeout"]
        uid = seen["uid"]
        assert uid is not None and uids.UID_BASE <= uid < uids.UID_BASE + uids.UID_COUNT
        # At once, with no waiting: the match returned only once the seat's processes were gone.
        assert seen["left"] == []
    finally:
        if seen.get("uid") is not None:
            uids.kill_all(seen["uid"])  # what the old code left running, for the next tests
