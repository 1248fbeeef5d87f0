"""``{% load local_time %}{% local_time dt %}``: a moment as ``<time datetime="...Z"
data-local>2026-12-01 20:30 UTC</time>``. The page says UTC (true without scripts, and for
crawlers); ``foundation/local_time.js`` (loaded by the base template) rewrites it in the
viewer's zone with the zone's short name."""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from foundation.timezones import utc_iso

register = template.Library()


@register.simple_tag(name="local_time")
def local_time(moment: datetime | None, empty: str = "") -> SafeString | str:
    """The ``<time>`` element for ``moment``; ``empty`` (escaped) when there is none."""
    if not isinstance(moment, datetime):
        return empty
    aware = moment if timezone.is_aware(moment) else moment.replace(tzinfo=UTC)
    shown = aware.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return format_html('<time datetime="{}" data-local>{}</time>', utc_iso(aware), shown)
