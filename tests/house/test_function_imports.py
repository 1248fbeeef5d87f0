"""A function-level import of the project's own modules hides a dependency (often a cycle)
from the reader and from the import contracts: each one left says why, in a comment on its
line or just above its group of imports (``# lazy: ...``). A ``noqa`` or ``type:`` pragma
alone is no reason. Migrations are left out (Django writes them)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO

SCANNED = ("arena", "games", "sandbox", "platform")
PRAGMA = re.compile(r"#\s*(noqa\b[^#]*|type:\s*ignore\S*)\s*")


def _own_packages() -> set[str]:
    apps = {p.name for p in (REPO / "platform").iterdir() if (p / "__init__.py").exists()}
    return {"arena", "games", "sandbox", *apps}


def _reason(line: str) -> bool:
    """The line carries a comment that is more than a pragma."""
    if "#" not in line:
        return False
    comment = line[line.index("#") :]
    return bool(PRAGMA.sub("", comment).strip(" #"))


def _explained(lines: list[str], node: ast.Import | ast.ImportFrom) -> bool:
    if _reason(lines[node.lineno - 1]):
        return True
    above = node.lineno - 2  # walk up over the rest of this group of imports
    while above >= 0 and lines[above].strip().startswith(("from ", "import ", ")")):
        if _reason(lines[above]):
            return True
        above -= 1
    while above >= 0 and lines[above].strip().startswith("#"):
        if _reason(lines[above]):
            return True
        above -= 1
    return False


def _names(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return ["." if node.level else (node.module or "")]


def unexplained_imports() -> list[str]:
    own = _own_packages()
    found = []
    for base in SCANNED:
        for path in sorted((REPO / base).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text()
            lines = source.splitlines()
            for func in ast.walk(ast.parse(source)):
                if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(func):
                    if not isinstance(node, ast.Import | ast.ImportFrom):
                        continue
                    ours = any(n == "." or n.split(".")[0] in own for n in _names(node))
                    if ours and not _explained(lines, node):
                        rel = Path(path).relative_to(REPO)
                        found.append(f"{rel}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return sorted(set(found))


def test_every_function_level_import_of_our_own_says_why() -> None:
    found = unexplained_imports()
    assert not found, "function-level imports without a reason:\n" + "\n".join(found)


def test_the_check_sees_an_unexplained_import_and_a_reason(tmp_path: Path) -> None:
    lines = ["def f():", "    from arena import referee", "    return referee"]
    tree = ast.parse("\n".join(lines))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert not _explained(lines, node)
    assert not _explained(["def f():", "    from arena import referee  # noqa: F401"], node)
    assert _explained(["def f():", "    # lazy: keeps it fast", lines[1]], node)
    assert _explained(["def f():", "    from arena import referee  # late: a cycle"], node)
