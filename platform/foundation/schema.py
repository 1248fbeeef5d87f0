"""OpenAPI schema post-processing (drf-spectacular): every operation documents the error answers
it can give, so that clients (and schema checkers) expect them: 400 (bad input, with the
message), 401 (a missing or invalid token where one is needed), 403 (not allowed), 404, 429
(throttled or locked out)."""

from __future__ import annotations

import threading
from typing import Any, ClassVar, cast

from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

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


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema, built once per process and version: it is a function of the code
    alone (served public: the same for every caller), and building it walks every endpoint's
    serializers (150-200 ms a request otherwise)."""

    _built: ClassVar[dict[str | None, Any]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def _get_schema_response(self, request: Any) -> Response:
        if not self.serve_public:  # then it depends on who asks
            return cast(Response, super()._get_schema_response(request))
        version = self.api_version or request.version or self._get_version_parameter(request)
        with self._lock:
            if version not in self._built:
                generator = self.generator_class(
                    urlconf=self.urlconf, api_version=version, patterns=self.patterns
                )
                self._built[version] = generator.get_schema(request=request, public=True)
        filename = self._get_filename(request, version)
        return Response(
            data=self._built[version],
            headers={"Content-Disposition": f'inline; filename="{filename}"'},
        )
