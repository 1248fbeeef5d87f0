"""Input fields that refuse at the edge what would otherwise reach the database as a 500: NUL
bytes (PostgreSQL refuses them in text), digits that are not ASCII (``int("²")`` fails where
``"²".isdigit()`` passes, ``int("١")`` quietly reads 1), and integers past the columns' range.
Shared by the API's serializers and filter sets and the site's forms."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from foundation.timezones import TZ_FIELD, wall_time_exists, zone_named

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


#: What a ``datetime-local`` input posts (seconds optional), or an ISO time with its offset.
LOCAL_DATETIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?"
    r"(Z|[+-][0-9]{2}:[0-9]{2})?"
)
DATETIME_MESSAGE = "Enter a date and time (YYYY-MM-DD HH:MM)."


class LocalDateTimeInput(forms.DateTimeInput):
    """An ``<input type=datetime-local>`` and the hidden ``tz`` field naming the zone its value
    is written in. The server writes values in UTC (``tz=UTC``); ``foundation/local_time.js``
    rewrites them to the browser's zone and names that zone in ``tz``. A form shown again
    after an error keeps the posted value and zone as they came."""

    input_type = "datetime-local"
    template_name = "foundation/widgets/local_datetime.html"
    #: What the input takes (minutes: the browser's picker has no seconds by default).
    wall_format = "%Y-%m-%dT%H:%M"

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        text = data.get(name)
        return None if text is None else (text, data.get(TZ_FIELD))

    def format_value(self, value: Any) -> str | None:
        return self._written(value)[0]

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["tz_name"] = TZ_FIELD
        context["widget"]["tz"] = self._written(value)[1]
        return context

    def _written(self, value: Any) -> tuple[str | None, str]:
        if isinstance(value, tuple):
            text, tz = value
            zone = zone_named(tz)
            return (text if isinstance(text, str) else None), str(zone)
        if isinstance(value, datetime):
            moment = value if timezone.is_aware(value) else value.replace(tzinfo=UTC)
            return moment.astimezone(UTC).strftime(self.wall_format), "UTC"
        return (value if isinstance(value, str) else None), "UTC"


class LocalDateTimeField(forms.Field):
    """A date and time typed in the browser's zone (posted in the hidden ``tz`` field; UTC when
    it is missing or unknown), cleaned to an aware datetime in UTC. A wall-clock time skipped
    when the clocks go forward is refused; one that happens twice when they go back is the
    first of the two."""

    widget = LocalDateTimeInput
    default_error_messages = {"invalid": DATETIME_MESSAGE}

    def to_python(self, value: Any) -> datetime | None:
        if isinstance(value, datetime):
            aware = value if timezone.is_aware(value) else value.replace(tzinfo=UTC)
            return aware.astimezone(UTC)
        text, tz = value if isinstance(value, tuple) else (value, None)
        if text in self.empty_values:
            return None
        try:
            if not isinstance(text, str) or not LOCAL_DATETIME.fullmatch(text.strip()):
                raise ValueError(text)
            parsed = datetime.fromisoformat(text.strip().replace(" ", "T"))
        except ValueError:  # the shape, or a day or hour that does not exist (02-30, 25:00)
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        if parsed.tzinfo is not None:  # an explicit offset (a script or test) wins over tz
            return parsed.astimezone(UTC)
        zone = zone_named(tz)
        if not wall_time_exists(parsed, zone):
            raise ValidationError(
                "%(when)s does not exist in %(zone)s (the clocks go forward then): choose "
                "another time.",
                code="nonexistent",
                params={"when": parsed.strftime("%Y-%m-%d %H:%M"), "zone": zone},
            )
        return parsed.replace(tzinfo=zone, fold=0).astimezone(UTC)

    def prepare_value(self, value: Any) -> Any:
        return value
