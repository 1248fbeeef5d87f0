"""Reading JSON request bodies: size and nesting depth bounded before any decoder runs.

DRF's own ``JSONParser`` hands the body to ``json.load``, which recurses once per level of
nesting: ``[`` * 100,000 was a ``RecursionError`` and a 500 on every JSON endpoint, the
anonymous token log-in included. Here the body is measured first (``arena.json_bounds``) and
anything unreadable is a 400 with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from arena import json_bounds

#: The nesting any API body may have: the API's bodies nest 2 levels.
MAX_DEPTH = json_bounds.MAX_DEPTH


def max_json_bytes() -> int:
    """The largest JSON body read: Django's cap on a body held in memory (a JSON body is all
    held in memory; files come as multipart, under their own caps)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440)


def load_json_body(raw: bytes, encoding: str = "utf-8") -> Any:
    """The JSON document of a request body; ``ValueError`` with a message for a person (the
    text is not JSON, not in ``encoding``, too large or too deeply nested)."""
    cap = max_json_bytes()
    if len(raw) > cap:
        raise ValueError(f"The JSON body is {len(raw)} bytes; at most {cap} are read.")
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        raise ValueError(f"The request body is not text in {encoding}.") from None
    try:
        json_bounds.check(text, max_depth=MAX_DEPTH)
        # The standard library, as DRF's parser: integers stay integers at any size (orjson
        # reads 10**30 as a float), and the bound above keeps its recursion shallow.
        return json.loads(text, parse_constant=_refuse_constant)
    except json_bounds.JSONBoundsError:
        raise ValueError(
            f"The JSON body nests arrays and objects deeper than {MAX_DEPTH} levels."
        ) from None
    except ValueError as exc:
        raise ValueError(f"The request body is not JSON ({exc}).") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class BoundedJSONParser(JSONParser):
    """``application/json`` bodies through :func:`load_json_body`: a 400 ``ParseError`` with
    the reason for anything it refuses, never a 500."""

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        # One byte past the cap is enough to tell that the body is too large.
        raw = stream.read(max_json_bytes() + 1) if stream is not None else b""
        try:
            return load_json_body(raw, encoding)
        except ValueError as exc:
            raise ParseError(str(exc)) from None
