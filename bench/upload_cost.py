"""What an upload costs the web process: ``python bench/upload_cost.py [--quick] [--json PATH]``.

For each file (every one within the upload cap), a fresh process sets up the site (SQLite and
the embedded broker in a temporary folder), uploads a first small file to warm up, then posts
the file through Django's test client, to the page's upload form (the structural check runs in
the form and again in the service) and to the API, and measures the web process:

- peak RSS growth: the kernel's high-water mark (``VmHWM``, reset through ``clear_refs``
  before the upload) minus the RSS just before it: what the request added at its worst,
  the test client's own copy of the body included;
- CPU seconds of the process (user + system) for the request.

Then, in a small process of its own, the worker's check of the same file (``sandbox.compile_check``:
the structural check again, and compiling main.py in a child with the default limits), with the
child's peak RSS and CPU. The web figures must stay under 50 MB and 1 s for every file
(issue 18); the worker's are bounded by ``ARENA_CHECK_MEMORY_MB`` and ``ARENA_CHECK_CPU_S``.
"""

from __future__ import annotations

import argparse
import bz2
import io
import json
import lzma
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CAP = 2 * 1024 * 1024  # ARENA_UPLOAD_MAX_BYTES's default
MiB = 1024 * 1024


# -- the files ----------------------------------------------------------------------------------


def simple_lines(size: int, modulo: int = 1000) -> bytes:
    """Lines of ``name = number`` up to ``size`` bytes: cheap to check, costly to compile."""
    out: list[bytes] = []
    total = i = 0
    while True:
        line = f"x{i % modulo} = {i % 100_000}\n".encode()
        if total + len(line) > size:
            return b"".join(out)
        out.append(line)
        total += len(line)
        i += 1


def zipped(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in files.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return buf.getvalue()


def bomb(method: str, unpacked: int, claimed: int) -> bytes:
    """A zip with main.py and ``data.bin``: ``unpacked`` zeros compressed with ``method``,
    whose headers claim ``claimed`` bytes (within the unpacked cap: read until it lies)."""
    zeros = b"\0" * MiB
    if method == "bzip2":
        packer: Any = bz2.BZ2Compressor(9)
        head, code = b"", zipfile.ZIP_BZIP2
    elif method == "lzma":
        lzma1 = {"id": lzma.FILTER_LZMA1, "preset": 1, "dict_size": 1 << 26, "lc": 3, "lp": 0}
        packer = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[{**lzma1, "pb": 2}])
        head, code = b"\x09\x14\x05\x00" + bytes([93]) + struct.pack("<I", 1 << 26), 14
    else:
        packer, head = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS), b""
        code = zipfile.ZIP_DEFLATED
    stream = (
        head + b"".join(packer.compress(zeros) for _ in range(unpacked // MiB)) + packer.flush()
    )
    data = bytearray(zipped({"main.py": b"pass\n", "data.bin": stream}, zipfile.ZIP_STORED))
    cd = data.rindex(b"PK\x01\x02")  # data.bin's central header: the last one
    (local,) = struct.unpack_from("<I", data, cd + 42)
    for method_at, size_at in ((local + 8, local + 22), (cd + 10, cd + 24)):
        struct.pack_into("<H", data, method_at, code)
        struct.pack_into("<I", data, size_at, claimed)
    return bytes(data)


def many_files(count: int) -> bytes:
    return zipped({"main.py": b"pass\n", **{f"p/{i}.py": b"X = 1\n" for i in range(count)}})


def cases(quick: bool) -> list[tuple[str, str, bytes]]:
    big_bomb = 256 * MiB if quick else 1024 * MiB
    eight = simple_lines(8 * MiB, modulo=10)
    out = [
        ("2 MiB main.py of simple lines", "main.py", simple_lines(CAP - 1)),
        ("8 MiB main.py in a zip", "bot.zip", zipped({"main.py": eight})),
        (
            f"bzip2 bomb: {big_bomb // MiB} MiB claiming 30 MiB",
            "bot.zip",
            bomb("bzip2", big_bomb, 30 * MiB),
        ),
        ("lzma bomb: 256 MiB claiming 30 MiB", "bot.zip", bomb("lzma", 256 * MiB, 30 * MiB)),
        (
            f"deflate bomb: {big_bomb // MiB} MiB claiming 30 MiB",
            "bot.zip",
            bomb("deflate", big_bomb, 30 * MiB),
        ),
        ("999 small files", "bot.zip", many_files(998)),
        ("too many entries (20,000)", "bot.zip", many_files(20_000)),
    ]
    for label, _name, data in out:
        assert len(data) <= CAP, (label, len(data))
    return out


# -- one measurement, in a fresh process -------------------------------------------------------


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(field)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _site() -> tuple[Any, Any, Any, Any]:
    """A fresh migrated site in a temporary folder: a game, a user, and a web and an API
    client logged in as that user."""
    work = Path(tempfile.mkdtemp(prefix="upload-cost-"))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="meeple.settings",
        ARENA_DATA_DIR=str(work),
        DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
        CELERY_BROKER_URL="",  # the embedded broker: the check waits in a folder, unrun
    )
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    from catalog.services import sync_games
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.test import APIClient

    call_command("migrate", verbosity=0)
    game = sync_games()[0]
    user = get_user_model().objects.create_user("bench", password="pw-bench-123")
    web, api = Client(), APIClient()
    web.force_login(user)
    api.force_authenticate(user)
    return game, user, web, api


def measure(path: Path, name: str) -> dict[str, Any]:
    """The web process's cost of one upload through each door (the form, the API), after a
    warm-up upload through the same door."""
    game, user, web, api = _site()
    from bots.models import Bot
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = path.read_bytes()
    result: dict[str, Any] = {}
    for door, n in (("web", 0), ("api", 1)):
        bots = [Bot.objects.create(owner=user, game=game, name=f"b{n}{k}") for k in range(2)]
        for k, bot in enumerate(bots):
            body = data if k else b"pass\n# warm-up\n"
            upload = SimpleUploadedFile(name if k else "main.py", body)
            Path("/proc/self/clear_refs").write_text("5")  # reset the high-water mark
            rss, cpu = _status_kb("VmRSS"), _cpu()
            response: Any
            if door == "web":
                response = web.post(f"/bots/{bot.pk}/upload/", {"code": upload})
            else:
                response = api.post(
                    f"/api/bots/{bot.pk}/versions/", {"code": upload}, format="multipart"
                )
            cpu_s, peak = _cpu() - cpu, _status_kb("VmHWM")
        result[door] = {
            "status": response.status_code,
            "rss_growth_mb": max(0, peak - rss) / 1024,
            "cpu_s": cpu_s,
        }
    return result


def measure_worker(path: Path, name: str) -> dict[str, Any]:
    """The worker's check, from a small process (the compile child's peak RSS counts what it
    shares with its parent until it execs, so the parent is kept small)."""
    sys.path[:0] = [str(ROOT)]
    from sandbox.bundle import BundleError
    from sandbox.compile_check import check_code

    data = path.read_bytes()
    wall = time.perf_counter()
    try:
        check_code(name, data)
        verdict = "compiles"
    except BundleError as exc:
        text = str(exc)
        verdict = "refused: " + (text if len(text) <= 60 else text[:57] + "...")
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "verdict": verdict,
        "child_peak_mb": child.ru_maxrss / 1024,
        "child_cpu_s": child.ru_utime + child.ru_stime,
        "wall_s": time.perf_counter() - wall,
    }


# -- the table ---------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller bombs (256 MiB)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--one", nargs=2, metavar=("PATH", "NAME"), help=argparse.SUPPRESS)
    parser.add_argument("--worker", nargs=2, metavar=("PATH", "NAME"), help=argparse.SUPPRESS)
    return parser.parse_args()


def measure_all(quick: bool) -> list[dict[str, Any]]:
    """Every case, each side measured in a fresh process of this script."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, name, data in cases(quick):
            path = Path(tmp) / name
            path.write_bytes(data)
            row: dict[str, Any] = {"file": label, "bytes": len(data)}
            for mode in ("--one", "--worker"):
                done = subprocess.run(
                    [sys.executable, __file__, mode, str(path), name],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                row.update(json.loads(done.stdout.strip().splitlines()[-1]))
            rows.append(row)
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        "| file | size | web form: answer, RSS growth, CPU | API: answer, RSS growth, CPU "
        "| worker check (child peak RSS, CPU) |"
    )
    print("|---|---:|---|---|---|")
    for r in rows:
        w, a, k = r["web"], r["api"], r
        print(
            f"| {r['file']} | {r['bytes'] / 1024:,.0f} KiB "
            f"| {w['status']}, {w['rss_growth_mb']:.1f} MB, {w['cpu_s']:.2f} s "
            f"| {a['status']}, {a['rss_growth_mb']:.1f} MB, {a['cpu_s']:.2f} s "
            f"| {k['verdict']} ({k['child_peak_mb']:.0f} MB, {k['child_cpu_s']:.1f} s) |"
        )
    worst_mb = max(max(r["web"]["rss_growth_mb"], r["api"]["rss_growth_mb"]) for r in rows)
    worst_cpu = max(max(r["web"]["cpu_s"], r["api"]["cpu_s"]) for r in rows)
    print(f"\nworst web request: {worst_mb:.1f} MB of RSS growth, {worst_cpu:.2f} s of CPU")


def main() -> int:
    args = parse_args()
    if args.one:
        print(json.dumps(measure(Path(args.one[0]), args.one[1])))
        return 0
    if args.worker:
        print(json.dumps(measure_worker(Path(args.worker[0]), args.worker[1])))
        return 0
    rows = measure_all(args.quick)
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
