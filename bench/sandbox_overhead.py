"""What the sandbox costs, in one run: ``python bench/sandbox_overhead.py [--quick] [--json PATH]``.

Measures (medians):

1. a whole match (the shortest game, first-action bots as protocol programs) under the Docker
   backend started cold (a container per seat), the Docker backend with a warm pool (full
   before each match: the latency a match sees; bench/throughput.py measures the sustained
   rate, refills included), the process backend, and plain unsandboxed pipes;
   overhead = backend - plain;
2. a container start through the backend (create + attach + start + first line) against a bare
   ``docker run --rm`` of the same image through the CLI, and a seat's start from the warm pool
   (code in, loader execs the bot, to its first line);
3. the per-decision round trip (one JSON line each way) through a container's attach socket,
   through a pooled container's FIFOs, through the process backend, and over a raw pipe (the
   floor).

Prints a table of figures and ratios. Docker rows are skipped (with a note) when no engine or
runtime image is available.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.referee import TimeControl, run_match  # noqa: E402
from games.simulate import shortest_game  # noqa: E402
from sandbox.base import Limits, Sandbox, SandboxError  # noqa: E402
from sandbox.code import prepare_bot, release_bot  # noqa: E402
from sandbox.docker import RUNTIME_IMAGE, DockerSandbox  # noqa: E402
from sandbox.process import ProcessSandbox, bot_python  # noqa: E402

ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
GOOD = ROOT / "tests" / "sandbox" / "bots" / "good.py"


def median_ms(xs: list[float]) -> float:
    return statistics.median(xs) * 1000


def time_match(game: str, players: int, sb: Sandbox, repeat: int) -> float:
    times = []
    for k in range(repeat):
        pool = getattr(sb, "pool", None)
        if pool is not None:  # a warm pool, as between matches of a worker that is not flooded
            pool.wait_full(Limits(), 120)
            sb.settle()  # type: ignore[attr-defined]
        t = time.perf_counter()
        out = run_match(
            game,
            [str(GOOD)] * players,
            seed=k,
            sandbox=sb,
            time=TimeControl(start_ms=20_000, move_ms=5_000, bank_ms=0),
        )
        times.append(time.perf_counter() - t)
        assert out.status == "finished" and all(s.status == "ok" for s in out.seats), out.error
    return median_ms(times)


def round_trips(bot, n: int) -> float:
    line = json.dumps({"type": "act", "turn": 1, "legal_actions": list(range(20))})
    bot.send_line(line)
    bot.read_line(30)
    t = time.perf_counter()
    for _ in range(n):
        bot.send_line(line)
        bot.read_line(30)
    return (time.perf_counter() - t) / n * 1e6


def raw_pipe_round_trip(n: int) -> float:
    p = subprocess.Popen(
        [bot_python(), "-u", "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert p.stdin and p.stdout
    data = (
        json.dumps({"type": "act", "turn": 1, "legal_actions": list(range(20))}) + "\n"
    ).encode()
    fin, fout = p.stdin.fileno(), p.stdout.fileno()

    def once() -> None:
        os.write(fin, data)
        got = b""
        while not got.endswith(b"\n"):
            got += os.read(fout, 65536)

    once()
    t = time.perf_counter()
    for _ in range(n):
        once()
    took = (time.perf_counter() - t) / n * 1e6
    p.kill()
    p.wait()
    return took


def pool_start_ms(sb: DockerSandbox, code, repeat: int) -> float:
    """A seat's start from the warm pool, to the bot's first line (its interpreter's start
    included, as in the cold figure)."""
    assert sb.pool is not None
    ours = []
    for _ in range(repeat):
        sb.pool.wait_full(Limits(), 120)
        sb.settle()
        t = time.perf_counter()
        bot = sb.start(code, labels={"bench": "1"}, limits=Limits())
        bot.send_line("{}")
        bot.read_line(30)
        ours.append(time.perf_counter() - t)
        bot.close(grace_s=0)
    return median_ms(ours)


def start_costs(sb: DockerSandbox, code, repeat: int) -> tuple[float, float]:
    """(backend start to first line, bare ``docker run --rm`` to exit), medians in ms."""
    ours, bare = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        bot = sb.start(code, labels={"bench": "1"}, limits=Limits())
        bot.send_line("{}")
        bot.read_line(30)
        ours.append(time.perf_counter() - t)
        bot.close(grace_s=0)
        t = time.perf_counter()
        subprocess.run(
            [
                "docker",
                "run",
                "--rm",
                "-i",
                "--network",
                "none",
                RUNTIME_IMAGE,
                "python3",
                "-c",
                "print(1)",
            ],
            check=True,
            capture_output=True,
            stdin=subprocess.DEVNULL,
        )
        bare.append(time.perf_counter() - t)
    return median_ms(ours), median_ms(bare)


def measure(quick: bool) -> tuple[dict[str, float], tuple[str, int, int]]:
    """Every figure (``fig``), and the match measured: (game, seats, decisions)."""
    rep = 3 if quick else 5
    cold = DockerSandbox(pool_size=0)
    docker: DockerSandbox | None = cold
    try:
        cold.check()
    except SandboxError as e:
        print(f"note: Docker rows skipped: {e}", file=sys.stderr)
        docker = None
    process = ProcessSandbox()
    plain = ProcessSandbox(use_bwrap=False, isolate_user=False)

    game, players, decisions = shortest_game()
    fig: dict[str, float] = {}
    fig["match_plain_ms"] = time_match(game, players, plain, rep)
    fig["match_process_ms"] = time_match(game, players, process, rep)
    pooled: DockerSandbox | None = None
    if docker:
        fig["match_docker_ms"] = time_match(game, players, docker, rep)
        pooled = DockerSandbox(pool_size=players, reuse=0)  # fresh containers, as measured
        fig["match_docker-pool_ms"] = time_match(game, players, pooled, rep)
    try:
        fig.update(per_bot_costs(process, docker, pooled, quick))
    finally:
        if pooled is not None and pooled.pool is not None:
            pooled.pool.shutdown()
    return fig, (game, players, decisions)


def per_bot_costs(
    process: Sandbox, docker: DockerSandbox | None, pooled: DockerSandbox | None, quick: bool
) -> dict[str, float]:
    """Round trips through each backend and over a raw pipe; container and pool starts."""
    rep, n_rt = (3, 300) if quick else (5, 2000)
    fig: dict[str, float] = {}
    tmp = Path(tempfile.mkdtemp())
    (tmp / "echo.py").write_text(ECHO)
    code = prepare_bot(tmp / "echo.py")
    try:
        fig["rt_raw_pipe_us"] = raw_pipe_round_trip(n_rt)
        with process.start(code, labels={"bench": "1"}, limits=Limits()) as bot:
            fig["rt_process_us"] = round_trips(bot, n_rt)
        if docker and pooled:
            with docker.start(code, labels={"bench": "1"}, limits=Limits()) as bot:
                fig["rt_docker_us"] = round_trips(bot, n_rt)
            pooled.pool.wait_full(Limits(), 120)  # type: ignore[union-attr]
            with pooled.start(code, labels={"bench": "1"}, limits=Limits()) as bot:
                fig["rt_pool_us"] = round_trips(bot, n_rt)
            fig["start_backend_ms"], fig["start_bare_run_ms"] = start_costs(docker, code, rep)
            fig["start_pool_ms"] = pool_start_ms(pooled, code, rep)
    finally:
        release_bot(code)
    return fig


def ratio_row(what: str, value: float, unit: str, base: float) -> tuple[str, str, str]:
    return what, f"{value:.0f} {unit}", f"{value / base:.2f}"


def table_rows(fig: dict[str, float], match: tuple[str, int, int]) -> list[tuple[str, str, str]]:
    game, players, decisions = match
    base = fig["match_plain_ms"]
    rows = [
        ratio_row(
            f"match, plain pipes ({game}, {players} seats, {decisions} decisions)", base, "ms", base
        )
    ]
    what = {"docker": "docker backend, cold", "docker-pool": "docker backend, warm pool"}
    for name in ("process", "docker", "docker-pool"):
        key = f"match_{name}_ms"
        if key in fig:
            versus = (
                f", {fig[key] / fig['match_process_ms']:.2f}x process" if name != "process" else ""
            )
            overhead = f"overhead {fig[key] - base:+.0f} ms{versus}"
            label = f"match, {what.get(name, name + ' backend')} ({overhead})"
            rows.append(ratio_row(label, fig[key], "ms", base))
    if "start_backend_ms" in fig:
        bare = fig["start_bare_run_ms"]
        rows.append(ratio_row("bare `docker run --rm` (CLI, to exit)", bare, "ms", bare))
        rows.append(
            ratio_row(
                "container start via backend (to first line)", fig["start_backend_ms"], "ms", bare
            )
        )
        rows.append(
            ratio_row(
                "seat start from the warm pool (to first line)", fig["start_pool_ms"], "ms", bare
            )
        )
    floor = fig["rt_raw_pipe_us"]
    rows.append(ratio_row("round trip, raw pipe (floor)", floor, "µs", floor))
    rows.append(ratio_row("round trip, process backend", fig["rt_process_us"], "µs", floor))
    if "rt_docker_us" in fig:
        rows.append(
            ratio_row("round trip, container attach socket", fig["rt_docker_us"], "µs", floor)
        )
        rows.append(ratio_row("round trip, pooled container FIFOs", fig["rt_pool_us"], "µs", floor))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    fig, match = measure(args.quick)
    rows = table_rows(fig, match)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    w = max(len(r[0]) for r in rows)
    print(f"| {'what':<{w}} | {'median':>9} | {'ratio':>5} |")
    print(f"|{'-' * (w + 2)}|{'-' * 11}|{'-' * 7}|")
    for what, val, ratio in rows:
        print(f"| {what:<{w}} | {val:>9} | {ratio:>5} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        game, players, _ = match
        args.json.write_text(json.dumps({"game": game, "players": players, **fig}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
