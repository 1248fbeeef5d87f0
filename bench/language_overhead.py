"""What each language costs a seat: ``python bench/language_overhead.py [--quick] [--markdown]``.

For every language of sandbox/languages/ (Python first, then the others), its starter bot
(arena/starters/<lang>/) is built once (not timed), then, per backend (Docker cold: a container
per start; the process backend where the host has the language's toolchain):

- **launch ms**: the backend's ``start`` (container create + attach + start, or the sandboxed
  process's spawn), median of N;
- **start → ready ms**: from sending ``start`` to reading ``ready``: the runtime's own start-up
  (a JVM, V8, Go's runtime), which is what the referee charges against ``start_ms``
  (arena/seat_start.py); median of N, and the max with the first start (cold files) included;
- **launch → ready ms**: the two together, median of N (in Docker a runtime starts booting
  while the backend's ``start`` is still returning, so part of its boot hides in the launch);
- **round trip µs**: one ``act`` (20 legal actions) sent and its answer read, after a warm-up
  (the JIT has run), median over the decisions of every start.

Prints one table; a backend a language cannot use (no image, no host toolchain) is a row with
its reason instead of figures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena import protocol as p  # noqa: E402
from arena.contract import TimeControl  # noqa: E402
from sandbox.base import BotCode, Limits, Sandbox, SandboxError  # noqa: E402
from sandbox.code import prepare_bot, release_bot  # noqa: E402
from sandbox.host_build import missing_tools  # noqa: E402
from sandbox.languages import LANGUAGES, Language  # noqa: E402

STARTERS = ROOT / "arena" / "starters"
LABELS = {"bench": "language-overhead"}
TIME = TimeControl()  # the defaults: what the start message tells a bot


@dataclass
class Row:
    lang: str
    backend: str
    launch_ms: float = 0.0
    ready_ms: float = 0.0
    ready_max_ms: float = 0.0
    total_ms: float = 0.0
    round_trip_us: float = 0.0
    note: str = ""


def ordered() -> list[Language]:
    """Python (today's language, the yardstick) first, then the others: the registry's order
    (its default first, tests/sandbox/test_languages.py)."""
    return list(LANGUAGES.values())


def starter_code(lang: Language, tmp: Path) -> BotCode:
    """A copy of the language's starter, prepared as an upload would be."""
    src = STARTERS / lang.key / lang.source
    dest = tmp / lang.key
    dest.mkdir()
    shutil.copy(src, dest / lang.source)
    return prepare_bot(dest / lang.source)


def _send(bot, message: dict) -> None:
    bot.send_line(p.encode_bytes(message))


def _read(bot, timeout_s: float = 60) -> dict:
    line = bot.read_line(timeout_s)
    if line is None:
        raise SandboxError(f"no answer within {timeout_s:.0f} s: {bot.exit_reason()}")
    return json.loads(line)


def one_start(sb: Sandbox, code: BotCode, decisions: int) -> tuple[float, float, list[float]]:
    """(launch s, start→ready s, round trips in s) for one start of the bot."""
    t0 = time.perf_counter()
    bot = sb.start(code, labels=LABELS, limits=Limits())
    try:
        t1 = time.perf_counter()
        start = p.start_message("bench", "bench-1", 0, 2, {}, asdict(TIME))
        _send(bot, start)
        assert _read(bot).get("type") == "ready"
        t2 = time.perf_counter()
        legal = [{"move": i} for i in range(20)]
        trips = []
        for turn in range(1, decisions + 1):
            act = p.act_message(turn, 0, {"board": []}, legal, TIME.move_ms)
            t = time.perf_counter()
            _send(bot, act)
            answer = _read(bot)
            trips.append(time.perf_counter() - t)
            assert "action_index" in answer, answer
        _send(bot, {"type": "end", "ranks": [1, 2], "scores": [0, 0]})
    finally:
        bot.close(grace_s=0)
    return t1 - t0, t2 - t1, trips


def measure(sb: Sandbox, lang: Language, tmp: Path, starts: int, decisions: int) -> Row:
    row = Row(lang.key, sb.name)
    code = starter_code(lang, tmp / sb.name)
    try:
        # The first start builds a compiled language (in the launch) and finds the image's
        # files cold: its start-up counts only towards the max.
        _, first_ready, _ = one_start(sb, code, 5)
        launches, readies, trips = [], [], []
        for _ in range(starts):
            launch, ready, rt = one_start(sb, code, decisions)
            launches.append(launch)
            readies.append(ready)
            trips.extend(rt[decisions // 4 :])  # after the warm-up: the JIT has had its go
    except Exception as e:  # a backend that cannot run it: say why, measure the rest
        row.note = f"{type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}"
        return row
    finally:
        release_bot(code)
    row.launch_ms = statistics.median(launches) * 1000
    row.ready_ms = statistics.median(readies) * 1000
    row.ready_max_ms = max(*readies, first_ready) * 1000
    totals = [a + b for a, b in zip(launches, readies, strict=True)]
    row.total_ms = statistics.median(totals) * 1000
    row.round_trip_us = statistics.median(trips) * 1e6
    return row


def backends(lang: Language, docker: Sandbox | None, process: Sandbox | None) -> list:
    """(backend name, backend or None, why it is skipped) for this language."""
    out: list[tuple[str, Sandbox | None, str]] = []
    out.append(("docker", docker, "" if docker is not None else "no Docker engine"))
    missing = missing_tools(lang)
    if missing:
        out.append(("process", None, f"the host lacks {', '.join(missing)}"))
    else:
        out.append(("process", process, ""))
    return out


def open_backends() -> tuple[Sandbox | None, Sandbox | None]:
    from sandbox.docker import DockerSandbox
    from sandbox.process import ProcessSandbox

    docker: Sandbox | None = DockerSandbox()
    try:
        docker.check()  # type: ignore[union-attr]
    except SandboxError as e:
        print(f"Docker rows skipped: {e}", file=sys.stderr)
        docker = None
    return docker, ProcessSandbox()


def render(rows: list[Row], markdown: bool) -> None:
    head = [
        "language",
        "backend",
        "launch ms",
        "start → ready ms (max, first incl.)",
        "launch → ready ms",
        "round trip µs",
    ]
    lines = []
    for r in rows:
        if r.note:
            lines.append([r.lang, r.backend, "", f"not measured: {r.note}", "", ""])
        else:
            ready = f"{r.ready_ms:.0f} ({r.ready_max_ms:.0f})"
            lines.append(
                [
                    r.lang,
                    r.backend,
                    f"{r.launch_ms:.0f}",
                    ready,
                    f"{r.total_ms:.0f}",
                    f"{r.round_trip_us:.0f}",
                ]
            )
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|---|---|---:|---:|---:|---:|")
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Languages: start-up and round trip (start_ms default {TIME.start_ms})")
    for h in head:
        table.add_column(h, justify="left" if h in ("language", "backend") else "right")
    for cells in lines:
        table.add_row(*cells)
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 starts, 40 decisions each")
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--lang", action="append", help="only this language (repeatable)")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    starts, decisions = (3, 40) if args.quick else (args.starts, args.decisions)
    docker, process = open_backends()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="lang-bench-") as tmp:
        for lang in ordered():
            if args.lang and lang.key not in args.lang:
                continue
            for name, sb, why in backends(lang, docker, process):
                if sb is None:
                    rows.append(Row(lang.key, name, note=why))
                    continue
                (Path(tmp) / name).mkdir(exist_ok=True)
                rows.append(measure(sb, lang, Path(tmp), starts, decisions))
                print(f"{lang.key} / {name}: done", file=sys.stderr)
    if docker is not None:
        docker.reap(LABELS)
    render(rows, args.markdown)


if __name__ == "__main__":
    main()
