"""Input fields that refuse at the edge what would otherwise reach the database as a 500: NUL
bytes (PostgreSQL refuses them in text), digits that are not ASCII (``int("²")`` fails where
``"²".isdigit()`` passes, ``int("١")`` quietly reads 1), and integers past the columns' range.
Shared by the API's serializers and filter sets and the site's forms."""

from __future__ import annotations

import re
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

#: Signed 64-bit: the widest integer column (ids are BigAutoField).
MAX_INT = (1 << 63) - 1
ASCII_INT = re.compile(r"[+-]?[0-9]{1,19}")
NUMBER_MESSAGE = "Enter a whole number written with the digits 0-9."
NUL_MESSAGE = "NUL characters are not allowed."
#: Longest slug, user name or name a filter may look for.
MAX_LOOKUP = 150


def parse_ascii_int(value: Any) -> int:
    """An int from an int or an ASCII decimal string; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(NUMBER_MESSAGE)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and ASCII_INT.fullmatch(value.strip()):
        return int(value.strip())
    raise ValueError(NUMBER_MESSAGE)


class AsciiIntegerField(forms.IntegerField):
    """A form field for whole numbers in ASCII digits within ``[min_value, max_value]`` (by
    default the range of a 64-bit column)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -MAX_INT - 1)
        kwargs.setdefault("max_value", MAX_INT)
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        try:
            return parse_ascii_int(value)
        except ValueError:
            raise ValidationError(NUMBER_MESSAGE, code="invalid") from None


class IdField(AsciiIntegerField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        super().__init__(*args, **kwargs)


class LookupField(forms.CharField):
    """A slug or name to look up: no NUL (Django's CharField already refuses it), bounded."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_LOOKUP)
        super().__init__(*args, **kwargs)


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(django_filters.Filter):
    """``?bot=12``: a positive id in ASCII digits."""

    field_class = IdField


@extend_schema_field(OpenApiTypes.STR)
class LookupFilter(django_filters.CharFilter):
    field_class = LookupField


class StrictBooleanField(forms.Field):
    """``true``/``false`` (or ``1``/``0``); empty: not given. Anything else is refused, where
    django-filter's own reads it as "not given" and quietly lists everything."""

    TRUE, FALSE = {"true", "1"}, {"false", "0"}

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        text = str(value).strip().lower()
        if text in self.TRUE | self.FALSE:
            return text in self.TRUE
        raise ValidationError("Use true or false.", code="invalid")


@extend_schema_field(OpenApiTypes.BOOL)
class StrictBooleanFilter(django_filters.Filter):
    """``?mine=true``: true or false, a 400 for anything else."""

    field_class = StrictBooleanField


class StrictIntegerField(serializers.IntegerField):
    """DRF's IntegerField without ``int()``'s Unicode digits, and bounded to 64 bits."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_INT)
        kwargs.setdefault("min_value", -MAX_INT - 1)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        try:
            return parse_ascii_int(data)
        except ValueError:
            self.fail("invalid")
            raise  # unreachable: fail raises


class SafeSlugRelatedField(serializers.SlugRelatedField):
    """A slug lookup that refuses NUL bytes and absurd lengths before the database sees them."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str) or "\x00" in data or len(data) > MAX_LOOKUP:
            self.fail("invalid")
        return super().to_internal_value(data)
