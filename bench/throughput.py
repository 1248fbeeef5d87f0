"""Matches per second per worker process, played back to back as a worker plays them:
``python bench/throughput.py [--seconds 20] [--workers 1,2] [--pool 4] [--json PATH]``.

Rows: built-in bots (in-process), program bots in the process backend, in Docker started cold
(a container per seat per match), in Docker from a warm pool (``ARENA_DOCKER_POOL``; every
container serves one match, ``ARENA_DOCKER_REUSE=0``) and in Docker from a warm pool whose
containers are reset and reused for later matches of the same bot version (the default). The
game is the shortest one (first-action bots, as in bench/sandbox_overhead.py), so the figures
are the platform's cost per match, not the game's. Each row runs for ``--seconds`` in each of
``--workers`` processes at once (the same script, one worker per process, like Celery's prefork
pool), and reports matches per second in total and per worker, the median match time, and the
CPU time used per match by the worker processes themselves (neither the bots' nor the Docker
engine's: compare the wall-clock rates). Docker rows are skipped without an engine and image.

On a shared, loaded machine ``--repeat N`` plays every row N times, interleaved (each round
plays all rows once), and reports each row's median run with the range of its rates, so that
the rows compare under the same load.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.contract import builtin_bot  # noqa: E402
from arena.referee import TimeControl, run_match  # noqa: E402
from games import registry  # noqa: E402
from games.simulate import shortest_game  # noqa: E402
from sandbox.base import Limits, SandboxError  # noqa: E402

GOOD = ROOT / "tests" / "sandbox" / "bots" / "good.py"
TC = TimeControl(start_ms=20_000, move_ms=5_000, bank_ms=0)
ROWS = ("builtin", "process", "docker-cold", "docker-pool", "docker-reuse")
POOLED = ("docker-pool", "docker-reuse")


def _backend(kind: str, pool: int):
    if kind == "process":
        from sandbox.process import ProcessSandbox

        return ProcessSandbox()
    if kind.startswith("docker"):
        from sandbox.docker import DockerSandbox

        reuse = pool if kind == "docker-reuse" else 0
        sb = DockerSandbox(pool_size=pool if kind in POOLED else 0, reuse=reuse)
        sb.check()
        if sb.pool is not None:
            sb.pool.wait_full(Limits(), 120)
        return sb
    return None


def _worker(kind: str, seconds: float, pool: int, go: object, out: object) -> None:
    game, players, _ = shortest_game()
    if kind == "builtin":
        name = next(iter(registry.bots(game)))
        bots = [builtin_bot(name)] * players
    else:
        bots = [str(GOOD)] * players
    sb = _backend(kind, pool)
    go.wait()  # type: ignore[attr-defined]  # all workers start together
    times: list[float] = []
    cpu0 = time.process_time()
    t_end = time.perf_counter() + seconds
    k = 0
    while time.perf_counter() < t_end:
        t = time.perf_counter()
        res = run_match(game, bots, seed=k, time=TC, sandbox=sb)
        times.append(time.perf_counter() - t)
        assert res.status == "finished", res.error
        k += 1
    stats = {"matches": k, "cpu_s": time.process_time() - cpu0, "wall_s": sum(times)}
    stats["times"] = times  # type: ignore[assignment]
    if sb is not None and getattr(sb, "pool", None) is not None:
        stats["hits"], stats["misses"] = sb.pool.hits, sb.pool.misses
        stats["reuses"] = sb.pool.reuses
        sb.pool.shutdown()
    out.put(stats)  # type: ignore[attr-defined]


def measure(kind: str, workers: int, seconds: float, pool: int) -> dict:
    ctx = mp.get_context("spawn")  # a clean process per worker, as Celery's pool starts them
    go, out = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(kind, seconds, pool, go, out)) for _ in range(workers)
    ]
    for p in procs:
        p.start()
    time.sleep(1.0)  # imports and pool fills
    go.set()
    results = [out.get(timeout=seconds + 300) for _ in procs]
    wall = max(r["wall_s"] for r in results)  # the playing, not the start-up or clean-up
    for p in procs:
        p.join(60)
    matches = sum(r["matches"] for r in results)
    times = [t for r in results for t in r["times"]]
    return {
        "kind": kind,
        "workers": workers,
        "matches": matches,
        "per_s": matches / wall,
        "per_s_per_worker": matches / wall / workers,
        "median_ms": statistics.median(times) * 1000 if times else float("nan"),
        "cpu_ms_per_match": sum(r["cpu_s"] for r in results) / max(1, matches) * 1000,
        "pool_hits": sum(r.get("hits", 0) for r in results),
        "pool_misses": sum(r.get("misses", 0) for r in results),
        "pool_reuses": sum(r.get("reuses", 0) for r in results),
    }


def _medians(runs: list[dict]) -> list[dict]:
    """Per row (kind, workers): its median run by rate, with the range of the rates and the
    number of runs. Rows in the order first played."""
    groups: dict[tuple[str, int], list[dict]] = {}
    for r in runs:
        groups.setdefault((r["kind"], r["workers"]), []).append(r)
    rows = []
    for group in groups.values():
        ordered = sorted(group, key=lambda r: r["per_s"])
        rates = [r["per_s"] for r in ordered]
        mid = dict(ordered[(len(ordered) - 1) // 2])
        mid.update(runs=len(rates), low=rates[0], high=rates[-1])
        rows.append(mid)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0, help="per row and worker count")
    ap.add_argument("--workers", default="1,2", help="worker process counts, e.g. 1,2")
    ap.add_argument("--pool", type=int, default=4, help="warm containers per worker")
    ap.add_argument("--rows", default=",".join(ROWS), help=f"some of {', '.join(ROWS)}")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of all rows, interleaved")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    kinds = [k for k in args.rows.split(",") if k]
    if any(k.startswith("docker") for k in kinds):
        try:
            _backend("docker-cold", 0)
        except SandboxError as e:
            print(f"note: Docker rows skipped: {e}", file=sys.stderr)
            kinds = [k for k in kinds if not k.startswith("docker")]
    game, players, decisions = shortest_game()
    runs = [
        measure(kind, int(w), args.seconds, args.pool)
        for _ in range(max(1, args.repeat))
        for kind in kinds
        for w in args.workers.split(",")
    ]
    rows = _medians(runs)
    base = {r["workers"]: r["per_s"] for r in rows if r["kind"] == "process"}
    print(
        f"{game}, {players} seats, {decisions} decisions, first-action bots; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end"
    )
    head = (
        "| bots | workers | matches/s | per worker | median match | worker CPU/match "
        "| × process | rate ÷ process | pool hits/misses (reused) |"
    )
    print(head)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        vs = base.get(r["workers"])
        ratio = f"{vs / r['per_s']:.2f}" if vs and r["kind"] != "builtin" else "-"
        rate = f"{r['per_s'] / vs:.2f}" if vs and r["kind"] != "builtin" else "-"
        pool = f"{r['pool_hits']}/{r['pool_misses']}" if r["kind"] in POOLED else "-"
        if r["kind"] == "docker-reuse":
            pool += f" ({r['pool_reuses']})"
        spread = f" ({r['low']:.1f}-{r['high']:.1f})" if r["runs"] > 1 else ""
        print(
            f"| {r['kind']} | {r['workers']} | {r['per_s']:.1f}{spread} "
            f"| {r['per_s_per_worker']:.1f} "
            f"| {r['median_ms']:.0f} ms | {r['cpu_ms_per_match']:.0f} ms | {ratio} | {rate} "
            f"| {pool} |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        out = {"game": game, "players": players, "rows": rows, "runs": runs}
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
