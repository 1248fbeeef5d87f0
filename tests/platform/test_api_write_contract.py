"""Every write endpoint of the API states its input and its answer with serializers of its
own (issue 19, item 5): the schema names a component for each request body and each success,
with no inline object, and it builds without a warning (a warning is a guess: an undocumented
answer or a renamed enum)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

WRITES = ("post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def _named(media: dict[str, Any]) -> bool:
    return all("$ref" in body["schema"] for body in media.values())


def test_every_write_names_its_input_and_its_answer(schema: dict[str, Any]) -> None:
    writes = [
        (method.upper(), path, op)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if method in WRITES
    ]
    assert len(writes) >= 15, [(m, p) for m, p, _ in writes]
    inline = []
    for method, path, op in writes:
        body = op.get("requestBody")
        if body is not None and not _named(body["content"]):
            inline.append(f"{method} {path}: request body")
        successes = {code: r for code, r in op["responses"].items() if code.startswith("2")}
        assert successes, f"{method} {path}: no success documented"
        for code, answer in successes.items():
            if code == "204":
                assert "content" not in answer, f"{method} {path}: a 204 with a body"
            elif not _named(answer.get("content", {})) or not answer.get("content"):
                inline.append(f"{method} {path}: {code} answer")
    assert not inline, inline


def test_a_delete_documents_its_input_and_its_answer(schema: dict[str, Any]) -> None:
    """A DELETE's body has no place in the schema: its input is query parameters."""
    for path, name in [
        ("/api/tournaments/{id}/entries/", "version"),
        ("/api/tournaments/{id}/members/", "username"),
    ]:
        op = schema["paths"][path]["delete"]
        (param,) = [p for p in op["parameters"] if p["name"] == name]
        assert param["in"] == "query" and param["required"], param
        assert "200" in op["responses"] and "204" not in op["responses"], op["responses"]


def test_the_schema_builds_without_a_warning(tmp_path: Any, db: None) -> None:
    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
