"""The API's one translator of the services' refusals (foundation/errors.py): every endpoint
answers them in the schema's one shape, and none re-wraps them by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from foundation.errors import refusal_detail, refused_as

from tests.conftest import REPO


def test_a_refusal_of_no_field_is_detail_and_a_fields_keeps_its_name() -> None:
    assert refusal_detail(ValidationError("No.")) == {"detail": ["No."]}
    assert refusal_detail(ValidationError(["A.", "B."])) == {"detail": ["A.", "B."]}
    both = ValidationError({"name": ["Taken."], "__all__": ["Also this."]})
    assert refusal_detail(both) == {"name": ["Taken."], "detail": ["Also this."]}


def test_refused_as_names_the_input_a_plain_refusal_is_about() -> None:
    with pytest.raises(ValidationError) as raised, refused_as("code"):
        raise ValidationError("main.py is not UTF-8 text.")
    assert refusal_detail(raised.value) == {"code": ["main.py is not UTF-8 text."]}

    class OfItsOwn(ValidationError):
        pass

    with pytest.raises(OfItsOwn), refused_as("code"):
        raise OfItsOwn("for the caller")


def test_a_service_refusal_through_an_endpoint_is_a_400_in_that_shape(admin_client) -> None:
    """create_bot refuses an unknown game by raising; the endpoint does not catch it."""
    from catalog.services import sync_games

    sync_games()
    body = {"game": "trnd", "name": "twice"}
    assert admin_client.post("/api/bots/", body, content_type="application/json").status_code == 201
    again = admin_client.post("/api/bots/", body, content_type="application/json")
    assert again.status_code == 400
    assert set(again.json()) <= {"detail", "name"} and again.json()


def _api_modules() -> list[Path]:
    """Every module of the site that speaks DRF (``api.py``, ``leagues/api.py``, ``results/api.py``
    ...), but the translator itself."""
    uses_drf = re.compile(r"^(from|import) rest_framework\b", re.M)
    return [
        path
        for path in (REPO / "platform").rglob("*.py")
        if "migrations" not in path.parts
        and path != REPO / "platform/foundation/errors.py"
        and uses_drf.search(path.read_text())
    ]


def test_no_endpoint_rewraps_validation_errors_by_hand() -> None:
    modules = _api_modules()
    names = {str(path.relative_to(REPO / "platform")) for path in modules}
    assert {"competitions/leagues/api.py", "competitions/tournaments/results/api.py"} <= names, (
        names
    )
    for api in modules:
        text = api.read_text()
        assert not re.search(r"except\s+\w*ValidationError", text), api.relative_to(REPO)
        assert "ListCreateAPIView" not in text, f"{api}: explicit input and output serializers"
