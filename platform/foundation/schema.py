"""OpenAPI schema post-processing (drf-spectacular): every operation documents the error answers
it can give, so that clients (and schema checkers) expect them: 400 (bad input, with the
message), 401 (a missing or invalid token where one is needed), 403 (not allowed), 404, 429
(throttled or locked out)."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {
    "type": "object",
    "description": '``{"detail": message}``, or field name -> list of messages',
    "additionalProperties": True,
}
ERRORS = {
    "400": "The input is refused; the body says why.",
    "401": "Authentication is needed, or the token given is not valid.",
    "403": "Not allowed for this user.",
    "404": "No such object.",
    "429": "Too many requests (throttled) or too many failed log-ins (locked out).",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for code, text in ERRORS.items():
                responses.setdefault(
                    code,
                    {
                        "description": text,
                        "content": {"application/json": {"schema": ERROR_SCHEMA}},
                    },
                )
    return result
