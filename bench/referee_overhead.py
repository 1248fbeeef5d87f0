"""The referee's own cost per decision, against the floor measured in the same run.

Floor: a raw pipe to the same kind of process (the same bot program under the same Python),
fed pre-encoded ``act`` lines of a real match and read back line by line, nothing else. Then
the engine alone (legal actions, observation, apply) in-process, then full matches through
the referee with the process sandbox. The referee's own cost is what is left:
referee - engine - floor. One process per seat for the whole match in all runs.

Wall-clock figures include waiting for the bot, so on a busy machine they carry its scheduling
noise; the CPU columns count only this process's own time (the floor's writes and reads; the
referee's encoding, checks, bookkeeping, engine and I/O), which load hardly changes.

    python bench/referee_overhead.py [--game trnd] [--matches 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena import protocol  # noqa: E402
from arena.referee import TimeControl, run_match  # noqa: E402
from games import registry  # noqa: E402
from sandbox.process import ProcessSandbox, bot_python  # noqa: E402

BOT = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        sys.stdout.write('{"type": "ready"}\\n')
    elif msg["type"] == "act":
        sys.stdout.write(json.dumps({"action_index": 0, "turn": msg["turn"]}) + "\\n")
    else:
        break
    sys.stdout.flush()
"""


def _use_root(root: Path) -> None:
    """Re-import the arena, games and sandbox packages from ``root``."""
    global protocol, TimeControl, run_match, registry, ProcessSandbox, bot_python
    for name in list(sys.modules):
        if name.split(".")[0] in {"arena", "games", "sandbox"}:
            del sys.modules[name]
    sys.path.insert(0, str(root.resolve()))
    import arena.protocol as protocol
    import arena.referee as referee
    import games.registry as registry
    import sandbox.process as process

    TimeControl, run_match = referee.TimeControl, referee.run_match
    ProcessSandbox, bot_python = process.ProcessSandbox, process.bot_python


def act_lines(game: str, players: int, seed: int) -> list[str]:
    """The encoded act messages of a first-action match: what the referee would send."""
    state = registry.get_game(game).new_game(players, seed)
    lines = []
    while not state.is_over():
        seat = state.current_seat()
        legal = state.legal_actions()
        msg = protocol.act_message(len(lines), seat, state.observation(seat), legal, 1000)
        lines.append(protocol.encode(msg))
        state.apply(legal[0])
    return lines


def engine_us(game: str, players: int, seed: int) -> tuple[float, float]:
    """Microseconds per decision of the engine alone, as the referee drives it: wall, CPU."""
    state = registry.get_game(game).new_game(players, seed)
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while not state.is_over():
        seat = state.current_seat()
        legal = state.legal_actions()
        state.observation(seat)
        state.apply(legal[0])
        n += 1
    return (time.perf_counter() - t0) * 1e6 / n, (time.process_time() - c0) * 1e6 / n


def pipe_floor_us(bot: Path, lines: list[str]) -> tuple[float, float]:
    """Microseconds per round trip of a raw pipe, wall and this process's CPU: write a
    pre-encoded line, read one back."""
    proc = subprocess.Popen(
        [bot_python(), "-u", str(bot)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert proc.stdin and proc.stdout
    out = proc.stdout
    data = [(line + "\n").encode() for line in lines]
    try:
        proc.stdin.write(b'{"type": "start"}\n')
        out.readline()
        t0, c0 = time.perf_counter(), time.process_time()
        for chunk in data:
            proc.stdin.write(chunk)
            out.readline()
        n = len(data)
        return (time.perf_counter() - t0) * 1e6 / n, (time.process_time() - c0) * 1e6 / n
    finally:
        proc.stdin.close()
        proc.wait(timeout=5)


def referee_us(
    bot: Path, game: str, players: int, seed: int, sandbox: ProcessSandbox
) -> tuple[float, float, int]:
    """Microseconds per decision through the referee, wall and this process's CPU: a full
    match minus a one-decision match (which holds the process starts and ends), divided by
    the decisions between."""
    bots = [str(bot)] * players
    tc = TimeControl(start_ms=10000, move_ms=5000, bank_ms=0)
    t0, c0 = time.perf_counter(), time.process_time()
    short = run_match(game, bots, seed=seed, time=tc, sandbox=sandbox, max_decisions=1)
    t1, c1 = time.perf_counter(), time.process_time()
    full = run_match(game, bots, seed=seed, time=tc, sandbox=sandbox)
    t2, c2 = time.perf_counter(), time.process_time()
    assert short.ok and full.ok, (short.error, full.error)
    assert all(s.status == "ok" for s in full.seats), [s.faults for s in full.seats]
    n = len(full.replay["decisions"])
    wall = ((t2 - t1) - (t1 - t0)) * 1e6 / (n - 1)
    cpu = ((c2 - c1) - (c1 - c0)) * 1e6 / (n - 1)
    return wall, cpu, n


def median(values: list[float]) -> float:
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


@dataclass
class Figures:
    """Per-decision medians over the measured matches, in µs: wall and this process's CPU."""

    floor: float
    floor_cpu: float
    engine: float
    engine_cpu: float
    referee: float
    referee_cpu: float
    decisions: list[int]

    @property
    def own(self) -> float:
        return max(0.0, self.referee - self.engine - self.floor)

    @property
    def own_cpu(self) -> float:
        return max(0.0, self.referee_cpu - self.engine_cpu - self.floor_cpu)


# -- arguments -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="trnd")
    parser.add_argument("--matches", type=int, default=5, help="matches measured (median)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--root",
        type=Path,
        help="measure the referee of another checkout (e.g. main, for a before/after table)",
    )
    parser.add_argument(
        "--bwrap",
        action="store_true",
        help="run the referee's bots under bubblewrap (default: plain processes, like the floor)",
    )
    return parser.parse_args(argv)


# -- the runs ------------------------------------------------------------------------------


def measure(game: str, players: int, matches: int, seed: int, sandbox: ProcessSandbox) -> Figures:
    """Floor, engine and referee for ``matches`` seeds, each run on the same match."""
    runs: dict[str, list[float]] = {k: [] for k in ("fw", "fc", "ew", "ec", "rw", "rc")}
    decisions: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "echo_bot.py"
        bot.write_text(BOT)
        os.chmod(tmp, 0o755)
        os.chmod(bot, 0o644)
        for k in range(matches):
            match_seed = seed + k
            lines = act_lines(game, players, match_seed)
            fw, fc = pipe_floor_us(bot, lines)
            ew, ec = engine_us(game, players, match_seed)
            rw, rc, n = referee_us(bot, game, players, match_seed, sandbox)
            for key, value in zip(runs, (fw, fc, ew, ec, rw, rc), strict=True):
                runs[key].append(value)
            decisions.append(n)
    m = {key: median(values) for key, values in runs.items()}
    return Figures(m["fw"], m["fc"], m["ew"], m["ec"], m["rw"], m["rc"], decisions)


# -- the table -----------------------------------------------------------------------------


def print_table(title: str, x: Figures) -> None:
    f, e, r, own = x.floor, x.engine, x.referee, x.own
    table = Table(title=title)
    for col in ("what", "wall µs", "× floor", "CPU µs (this process)"):
        table.add_column(col, justify="left" if col == "what" else "right")
    table.add_row(
        "floor: raw pipe round trip, same bot program", f"{f:.1f}", "1.00", f"{x.floor_cpu:.1f}"
    )
    table.add_row(
        "engine alone (legal, observation, apply)", f"{e:.1f}", f"{e / f:.2f}", f"{e:.1f}"
    )
    table.add_row("referee, whole decision", f"{r:.1f}", f"{r / f:.2f}", f"{x.referee_cpu:.1f}")
    table.add_row(
        "referee's own cost (referee - engine - floor)",
        f"{own:.1f}",
        f"{own / f:.2f}",
        f"{x.own_cpu:.1f}",
    )
    Console().print(table)


def summary(game: str, players: int, x: Figures) -> dict[str, object]:
    """The figures as one JSON line (what the docs' tables are copied from)."""
    return {
        "game": game,
        "players": players,
        "decisions": x.decisions,
        "floor_us": round(x.floor, 2),
        "engine_us": round(x.engine, 2),
        "referee_us": round(x.referee, 2),
        "own_us": round(x.own, 2),
        "floor_cpu_us": round(x.floor_cpu, 2),
        "referee_cpu_us": round(x.referee_cpu, 2),
        "own_cpu_us": round(x.own_cpu, 2),
        "ratio_referee_to_floor": round(x.referee / x.floor, 3),
        "ratio_own_to_floor": round(x.own / x.floor, 3),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.root:
        _use_root(args.root)
    game = registry.get_game(args.game)
    players = max(game.min_players, 2)
    sandbox = ProcessSandbox(use_bwrap=args.bwrap)
    figures = measure(args.game, players, args.matches, args.seed, sandbox)
    print_table(
        f"referee overhead per decision: {args.game}, {players} seats, "
        f"{args.matches} matches (median), {sandbox.describe()}",
        figures,
    )
    print(json.dumps(summary(args.game, players, figures)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
