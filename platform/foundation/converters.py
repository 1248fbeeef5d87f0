"""Path converters of the site's URLs."""

from __future__ import annotations


class IdConverter:
    """``<id:pk>``: a database id or a small number in a URL, 1 to 18 digits, so that every
    value fits a 64-bit column. A longer number matches no URL (a 404), where Django's
    ``<int:...>`` passes it on and the database driver fails on it (a 500)."""

    regex = "[0-9]{1,18}"
    #: What the API schema says of it (drf-spectacular's PATH_CONVERTER_OVERRIDES).
    schema = {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)
