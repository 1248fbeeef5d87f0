"""Compiling a bot's ``main.py`` and saying why it does not compile, with the standard library
only: imported by :mod:`sandbox.bundle` (the command line compiles in its own process) and run
as a script by :mod:`sandbox.compile_check` in a child process that limits itself first
(``python -I -S compile_child.py NAME MEMORY_BYTES CPU_SECONDS`` sets its address-space and
CPU limits, reads the source on stdin and prints one JSON object).
"""

from __future__ import annotations

import json
import sys


def try_compile(data: bytes, name: str) -> dict[str, object] | None:
    """None when ``data`` is UTF-8 Python that compiles, else what failed as a small dict
    (``error``: ``utf8`` | ``syntax`` | ``nested`` | ``value``, with ``line``, ``msg``, ``at``)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return {"error": "utf8", "at": exc.start}
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return {"error": "syntax", "line": exc.lineno, "msg": str(exc.msg)[:500]}
    except (MemoryError, RecursionError):
        return {"error": "nested"}
    except (ValueError, OverflowError) as exc:  # NUL bytes (3.11), literals out of range
        return {"error": "value", "msg": str(exc)[:500]}
    return None


def limit_self(memory: int, cpu: int) -> None:
    """Limits set by the child on itself, before it reads a byte of the source (no
    ``preexec_fn`` in the parent, which a worker with threads could deadlock in)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main() -> int:
    name, memory, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    limit_self(memory, cpu)
    failure = try_compile(sys.stdin.buffer.read(), name)
    sys.stdout.write(json.dumps(failure or {"ok": True}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
