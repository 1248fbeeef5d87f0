"""The API's match list carries a bounded count: how many matches fit the filters, counted
up to ``ARENA_MATCH_COUNT_LIMIT`` in one query whatever the number stored, and said in the
schema."""

from __future__ import annotations

from typing import Any

import pytest
from api.match_api import MatchCursorPagination
from django.db import connection
from django.test.utils import CaptureQueriesContext
from matches.models import MatchKind
from matches.services import create_match
from rest_framework.test import APIClient


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def make(trnd: Any, versions: list[Any], n: int, kind: str = MatchKind.STANDALONE) -> None:
    for seed in range(n):
        create_match(game=trnd, versions=versions, seed=seed, kind=kind)


def test_count_is_exact_below_the_bound_and_the_same_on_every_page(
    api: APIClient, trnd: Any, three_versions: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    make(trnd, three_versions, 5)
    make(trnd, three_versions, 2, kind=MatchKind.CHALLENGE)
    first = api.get("/api/matches/").json()
    assert (first["count"], first["count_capped"]) == (7, False)
    assert len(first["results"]) == 7
    challenges = api.get("/api/matches/?kind=challenge").json()
    assert (challenges["count"], challenges["count_capped"]) == (2, False)
    assert api.get("/api/matches/?kind=ladder").json()["count"] == 0

    # cursor pages: the count is of the whole filtered list, not of what is left
    monkeypatch.setattr(MatchCursorPagination, "page_size", 3)
    first = api.get("/api/matches/").json()
    second = api.get(first["next"]).json()
    assert len(second["results"]) == 3 and second["results"][0]["id"] < first["results"][-1]["id"]
    assert (second["count"], second["count_capped"]) == (7, False)


def test_more_than_the_bound_says_so(
    api: APIClient, trnd: Any, three_versions: list[Any], settings: Any
) -> None:
    settings.ARENA_MATCH_COUNT_LIMIT = 3
    make(trnd, three_versions, 5)
    body = api.get("/api/matches/").json()
    assert (body["count"], body["count_capped"]) == (3, True)
    assert len(body["results"]) == 5  # only the count stops at the bound, never the list
    settings.ARENA_MATCH_COUNT_LIMIT = 5
    assert api.get("/api/matches/").json()["count_capped"] is False


def test_the_count_costs_one_bounded_query_at_any_size(
    api: APIClient, trnd: Any, three_versions: list[Any], settings: Any
) -> None:
    settings.ARENA_MATCH_COUNT_LIMIT = 4

    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            assert api.get("/api/matches/?game=trnd").status_code == 200
        return [q["sql"] for q in captured.captured_queries]

    make(trnd, three_versions, 2)
    few = queries()
    make(trnd, three_versions, 10)
    many = queries()
    assert len(few) == len(many)
    counts = [sql for sql in many if "COUNT(" in sql.upper()]
    assert len(counts) == 1 and "LIMIT 5" in counts[0].upper()


def test_the_schema_says_what_the_count_means(api: APIClient, db: None) -> None:
    schema = api.get("/api/schema/?format=json").json()
    listing = schema["paths"]["/api/matches/"]["get"]["responses"]["200"]["content"]
    ref = listing["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    paged = schema["components"]["schemas"][ref]
    assert {"count", "count_capped", "results"} <= set(paged["required"])
    count = paged["properties"]["count"]
    assert count["type"] == "integer" and count["maximum"] == 10_000
    assert "counted up to 10000" in count["description"]
    assert "more than 10000" in paged["properties"]["count_capped"]["description"]
