"""A pytest plugin for tests/house/test_markers.py: after collection it writes, for every
test, its markers and what it starts (real worker processes, a chromium), read from the
source of the test and of every fixture it uses, also the ones it asks for by name
(``request.getfixturevalue``). Loaded with ``-p tests.house.collected_marks``; writes the
JSON file named by ``ARENA_COLLECTED_MARKS`` and nothing without it."""

from __future__ import annotations

import functools
import inspect
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

#: How this repository starts what a marker stands for: the patterns are read in the source of
#: a test and of its fixtures. A new way to start a worker or a browser belongs here.
STARTS: dict[str, list[str]] = {
    "worker": [
        r'"-m",\s*"celery"',  # a Celery worker or beat process
        r"\bbeat_process\(",  # tests/conftest.py's beat
        r"\bbackground_workers\b",  # the embedded workers (foundation/workers.py)
        r'"manage\.py",\s*"serve"',  # the site and its embedded worker
        r'Popen\((?s:.)*?"--serve"',  # manage.py demo --serve: the same
    ],
    "browser": [r"\.chromium\.launch\("],
}
DYNAMIC = re.compile(r"getfixturevalue\(\s*[\"'](\w+)[\"']\s*\)")


@functools.cache
def _source(func: Callable[..., Any]) -> str:
    try:
        return inspect.getsource(inspect.unwrap(func))
    except (OSError, TypeError):
        return ""


def _own(item: pytest.Function) -> str:
    """The test's source with what it names of its module: the module's strings (a script it
    runs) and functions (a helper that starts a process)."""
    func = inspect.unwrap(item.function)
    parts = [_source(func)]
    for name in func.__code__.co_names:
        value = getattr(item.module, name, None)
        if isinstance(value, str):
            parts.append(value)
        elif inspect.isfunction(value) and value.__module__ == item.module.__name__:
            parts.append(_source(value))
    return "\n".join(parts)


def _sources(item: pytest.Function) -> Iterator[str]:
    """The test's own source, then each fixture's it uses, directly, through other fixtures
    or by name at run time."""
    own = _own(item)
    yield own
    manager = item.session._fixturemanager
    wanted = [*item.fixturenames, *DYNAMIC.findall(own)]
    seen: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.add(name)
        for fixturedef in manager.getfixturedefs(name, item) or ():
            text = _source(fixturedef.func)
            yield text
            wanted += [*fixturedef.argnames, *DYNAMIC.findall(text)]


def starts(item: pytest.Function) -> list[str]:
    """The markers whose process ``item`` starts, by the patterns of STARTS."""
    text = "\n".join(_sources(item))
    return sorted(m for m, pats in STARTS.items() if any(re.search(p, text) for p in pats))


def pytest_collection_finish(session: pytest.Session) -> None:
    out = os.environ.get("ARENA_COLLECTED_MARKS")
    if not out:
        return
    rows = [
        {
            "id": item.nodeid,
            "marks": sorted({m.name for m in item.iter_markers()}),
            "starts": starts(item),
        }
        for item in session.items
        if isinstance(item, pytest.Function)
    ]
    Path(out).write_text(json.dumps(rows))
