"""Time zones as browsers name them (IANA names such as ``Europe/Paris``): times are stored in
UTC, shown in the viewer's zone by ``foundation/local_time.js``, and typed in that zone in
``<input type=datetime-local>`` fields (``foundation.fields.LocalDateTimeField``), whose form
posts the browser's zone in a hidden ``tz`` field."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

#: The hidden field a form posts the browser's zone in (filled by ``local_time.js``).
TZ_FIELD = "tz"
#: Longest zone name accepted (the longest IANA name is 32 characters).
MAX_ZONE_NAME = 64


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    # Only names of the zone database: a free string never reaches ZoneInfo's file lookup.
    return frozenset(available_timezones())


def zone_named(name: object) -> tzinfo:
    """The zone called ``name``, or UTC when the name is missing, too long or unknown (a
    browser that sends no zone, or a name this machine's zone database lacks)."""
    if not isinstance(name, str) or not name or len(name) > MAX_ZONE_NAME:
        return UTC
    if name == "UTC" or name not in _known_zones():
        return UTC
    return ZoneInfo(name)


def wall_time_exists(naive: datetime, zone: tzinfo) -> bool:
    """False for a wall-clock time skipped when the clocks go forward (02:30 on the spring
    night in Europe/Paris): converting there and back does not give it again."""
    aware = naive.replace(tzinfo=zone)
    back = aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None)
    return back == naive


def utc_iso(moment: datetime) -> str:
    """``2026-12-01T20:30:00Z``: an aware time in UTC, as ``<time datetime=...>`` takes it."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
