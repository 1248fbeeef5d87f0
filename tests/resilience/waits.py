"""Bounded waits: every wait of the fault-injection tests polls and gives up, with the
workers' logs, after ``WAIT_S`` at most."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

WAIT_S = float(
    os.environ.get("ARENA_TEST_WAIT_S", "240")
)  # the longest any wait here may take before the test fails with the logs


def wait_for(
    what: str,
    check: Callable[[], Any],
    timeout: float = WAIT_S,
    every: float = 0.2,
    logs: Callable[[], str] | None = None,
) -> Any:
    """Poll ``check`` until it returns something truthy; fail with ``what`` (and logs)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(
        f"timed out after {timeout:.0f}s waiting for {what}\n" + (logs() if logs else "")
    )
