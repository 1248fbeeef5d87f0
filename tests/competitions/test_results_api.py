"""The results API answers what its OpenAPI schema documents, for a played tournament (the
schemathesis run over the whole API meets only drafts and empty tables)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from competitions.management.commands.demo import demo_entrants
from competitions.tournaments.services import create_tournament, start_tournament
from django.test import Client


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type."""
    if isinstance(node, dict):
        out = {k: as_json_schema(v) for k, v in node.items() if k != "nullable"}
        if node.get("nullable") and "type" in node:
            out["type"] = [node["type"], "null"]
        elif node.get("nullable") and "allOf" in node:
            out = {"anyOf": [{"allOf": out.pop("allOf")}, {"type": "null"}], **out}
        return out
    if isinstance(node, list):
        return [as_json_schema(v) for v in node]
    return node


@pytest.mark.parametrize("fmt", ["knockout", "round-robin"])
def test_results_answers_match_the_schema(games, inline, client: Client, fmt: str):
    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, 4)[:5]
    t = create_tournament(
        organiser=entrants[0].bot.owner, game=game, name="Cup", entrants=entrants, format=fmt
    )
    inline(start_tournament, t)
    doc = client.get("/api/schema/?format=json").json()
    paths = doc["paths"]
    for path in ("standings", "crosstable"):
        operation = paths[f"/api/tournaments/{{id}}/{path}/"]["get"]
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        answer = client.get(f"/api/tournaments/{t.pk}/{path}/")
        assert answer.status_code == 200
        body = answer.json()
        root = as_json_schema({**schema, "components": doc["components"]})
        jsonschema.validate(body, root)
        if path == "standings":
            assert body["winner"] is not None and len(body["standings"]) == 5
        else:
            assert len(body["matches"]) == t.matches.count() > 0
    missing = client.get("/api/tournaments/999999/standings/")
    assert missing.status_code == 404
