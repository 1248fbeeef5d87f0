"""Schemathesis over the whole OpenAPI schema, in process through the WSGI app, anonymous and
with a bot owner's token: no 5xx, and every answer as the schema documents it (status codes,
content types, bodies). Bounded in examples per operation for CI's two cores."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from tests.security.conftest import World

MAX_EXAMPLES = 12
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


def _schema(settings: Any) -> Any:
    # Throttles would turn the run into 429s after a few dozen calls: they have tests of their own.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def keep_connection() -> Iterator[None]:
    """The raw WSGI handler closes the database connection after each request (as a server
    should); inside a test's transaction that would drop it, so keep it as the test client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_api_conforms_to_its_schema(world: World, settings: Any, keep_connection: None) -> None:
    schema = _schema(settings)
    token, _ = Token.objects.get_or_create(user=world.users["owner"])
    # The raw WSGI transport decodes no compressed body: ask for none (the site gzips answers
    # for clients that accept it, and serves stored replays compressed).
    plain = {"Accept-Encoding": "identity"}
    owner = {"Authorization": f"Token {token.key}", **plain}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15, [op.label for op in operations]
    failures: list[str] = []
    for operation in operations:

        @given(case=operation.as_strategy())
        @hypothesis_settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            case.call_and_validate(headers=plain, checks=CHECKS)  # anonymous
            case.call_and_validate(headers=owner, checks=CHECKS)

        try:
            check()
        except Exception as exc:  # collect every operation's failure, then report them all
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)


def test_a_refused_upload_answers_what_the_schema_says(world: World) -> None:
    """The upload's 400 carries the file's faults under ``code``; the schema said ``detail``."""
    schema = world.api("anonymous").get("/api/schema/?format=json").json()
    post = schema["paths"]["/api/bots/{id}/versions/"]["post"]
    ref = post["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(body["properties"]) == {"code", "detail"}
    assert not body.get("required")
    refused = world.api("owner").post(
        f"/api/bots/{world.bot.pk}/versions/",
        {"code": SimpleUploadedFile("notes.txt", b"hello")},
        format="multipart",
    )
    assert refused.status_code == 400 and set(refused.json()) <= set(body["properties"])
