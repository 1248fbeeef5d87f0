"""matches sits below ratings, competitions, ladder and play in the layers and imports none of
them: it must not read their tables either, by the name of a reverse relation their models put
on its rows (``rating_changes``, ``competition_link``, ``people``...) or through ``_meta``. Else
the data layer points up while the imports point down; the pages and endpoints that show a match
with its ratings, tournament or people compose them at the top (site_pages, api)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import apps

from tests.conftest import REPO

APP = "matches"
#: A string that may be an ORM path: ``"rating_changes"``, ``"competition_link__tournament"``.
_LOOKUP = re.compile(r"^_*[a-z][a-z0-9_]*$")


def _apps_above(app: str) -> set[str]:
    """The apps in the layers above ``app`` (pyproject's "Django apps" contract)."""
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["name"].startswith("Django apps")]
    above: set[str] = set()
    for layer in layers:
        names = {name.strip() for name in layer.split("|")}
        if app in names:
            return above
        above |= names
    raise AssertionError(f"{app} is not in the layers")


def _upward_names(app: str) -> dict[str, set[str]]:
    """Each name by which a row below the apps above ``app`` reaches theirs (the accessor and
    the query name of every relation their models point down with), and whose it is."""
    above = _apps_above(app)
    names: dict[str, set[str]] = {}
    for model in apps.get_models():
        if model._meta.app_label not in above:
            continue
        for field in model._meta.get_fields():
            remote = getattr(field, "remote_field", None)
            if not field.concrete or remote is None or remote.hidden:
                continue  # a reverse relation, or none asked for (related_name "+")
            if remote.model._meta.app_label in above:
                continue  # a relation among the upper apps: not reachable from below
            owner = f"{model._meta.label}.{field.name}"
            for name in {remote.get_accessor_name(), field.related_query_name()}:
                names.setdefault(name, set()).add(owner)
    return names


def _sources(app: str) -> Iterator[Path]:
    for path in sorted((REPO / "platform" / app).rglob("*.py")):
        if "migrations" not in path.parts:  # history: the schema as it was, never read
            yield path


def _words(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every name a module could reach a relation by: attributes, keyword arguments and the
    parts of strings that look like ORM paths (f-strings' literal parts too)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.keyword) and node.arg:
            yield from ((node.value.lineno, part) for part in node.arg.split("__"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for piece in node.value.split("__"):
                if _LOOKUP.match(piece):
                    yield node.lineno, piece


def upward_reads(app: str) -> list[str]:
    """Where ``app``'s code (migrations aside) names an upper app's relation or asks ``_meta``
    for a related model."""
    names = _upward_names(app)
    found = []
    for path in _sources(app):
        text = path.read_text()
        where = path.relative_to(REPO)
        for lineno, line in enumerate(text.splitlines(), 1):
            if "_meta" in line and re.search(r"get_field|related_model|related_objects", line):
                found.append(f"{where}:{lineno}: reaches a related model through _meta")
        for lineno, word in _words(ast.parse(text)):
            if word in names:
                owners = ", ".join(sorted(names[word]))
                found.append(f"{where}:{lineno}: {word!r} names a relation of {owners}")
    return sorted(set(found))


@pytest.mark.django_db
def test_the_names_are_found() -> None:
    """The check knows the relations it guards against (else it could never fail)."""
    names = _upward_names(APP)
    assert {"rating_changes", "competition_link", "people"} <= names.keys(), names


def test_the_check_sees_a_reverse_relation_and_meta(tmp_path: Path) -> None:
    tree = ast.parse(
        'qs.prefetch_related("rating_changes")\n'
        "qs.filter(competition_link__tournament_id=1)\n"
        'f"{x}__people"\n'
        "seat.match.rating_changes.all()\n"
    )
    words = {word for _, word in _words(tree)}
    assert {"rating_changes", "competition_link", "tournament_id", "people"} <= words


def test_matches_reads_no_upper_app_table() -> None:
    """No reverse relation of ratings', competitions', the ladder's or play's rows, no
    ``_meta`` walk to a related model, anywhere in matches but its migrations."""
    assert upward_reads(APP) == []
