"""Times typed and shown in the viewer's zone: ``foundation.fields.LocalDateTimeField`` reads a
``datetime-local`` value in the zone the browser posts (hidden ``tz``), ``{% local_time %}``
writes a moment in UTC for ``foundation/local_time.js`` to rewrite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from django import forms
from django.template import Context, Template
from foundation.fields import LocalDateTimeField
from foundation.timezones import zone_named


class WhenForm(forms.Form):
    when = LocalDateTimeField()
    maybe = LocalDateTimeField(required=False)


def clean(value: str, tz: str | None = None, **more: str) -> datetime:
    data = {"when": value, **more}
    if tz is not None:
        data["tz"] = tz
    form = WhenForm(data)
    assert form.is_valid(), form.errors
    return form.cleaned_data["when"]


def errors(value: str, tz: str | None = None) -> list[str]:
    data = {"when": value} if tz is None else {"when": value, "tz": tz}
    form = WhenForm(data)
    assert not form.is_valid()
    return [str(e) for e in form.errors["when"]]


@pytest.mark.parametrize(
    ("typed", "tz", "utc"),
    [
        ("2026-12-01T20:30", "Europe/Paris", datetime(2026, 12, 1, 19, 30, tzinfo=UTC)),  # CET
        ("2026-07-01T20:30", "Europe/Paris", datetime(2026, 7, 1, 18, 30, tzinfo=UTC)),  # CEST
        ("2026-12-01T20:30", "America/New_York", datetime(2026, 12, 2, 1, 30, tzinfo=UTC)),
        ("2026-12-01T20:30", "Asia/Kolkata", datetime(2026, 12, 1, 15, 0, tzinfo=UTC)),
        ("2026-12-01T20:30", "UTC", datetime(2026, 12, 1, 20, 30, tzinfo=UTC)),
        ("2026-12-01 20:30:15", "Asia/Tokyo", datetime(2026, 12, 1, 11, 30, 15, tzinfo=UTC)),
    ],
)
def test_a_typed_time_is_read_in_the_posted_zone(typed: str, tz: str, utc: datetime) -> None:
    got = clean(typed, tz)
    assert got == utc
    assert got.utcoffset() == timedelta(0)


def test_no_zone_or_an_unknown_one_is_utc() -> None:
    noon = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    assert clean("2026-12-01T12:00") == noon
    for bad in ("Mars/Olympus_Mons", "../../etc/passwd", "", "x" * 500, "Europe/Paris\x00"):
        assert clean("2026-12-01T12:00", bad) == noon
    assert zone_named(None) is UTC


def test_an_explicit_offset_wins_over_the_zone() -> None:
    assert clean("2026-12-01T12:00+02:00", "Asia/Tokyo") == datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    assert clean("2026-12-01T12:00Z", "Asia/Tokyo") == datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_time_skipped_by_the_clocks_going_forward_is_refused() -> None:
    # 2026-03-29 02:30 never happens in Paris (02:00 CET -> 03:00 CEST).
    (message,) = errors("2026-03-29T02:30", "Europe/Paris")
    assert "does not exist in Europe/Paris" in message
    # The same wall time in New York (clocks change on 8 March there) is fine.
    assert clean("2026-03-29T02:30", "America/New_York") == datetime(2026, 3, 29, 6, 30, tzinfo=UTC)
    assert clean("2026-03-29T03:30", "Europe/Paris") == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)


def test_a_time_that_happens_twice_is_the_first() -> None:
    # 2026-10-25 02:30 happens at 00:30 UTC (CEST) and again at 01:30 UTC (CET).
    assert clean("2026-10-25T02:30", "Europe/Paris") == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "bad",
    ["tomorrow", "2026-13-01T10:00", "2026-02-30T10:00", "2026-12-01T25:00", "١٢٣٤-01-01T10:00"],
)
def test_what_is_not_a_time_is_a_form_error(bad: str) -> None:
    assert errors(bad, "Europe/Paris") == ["Enter a date and time (YYYY-MM-DD HH:MM)."]


def test_empty_is_none_when_optional_and_an_error_when_required() -> None:
    form = WhenForm({"when": "2026-12-01T10:00", "maybe": "", "tz": "Europe/Paris"})
    assert form.is_valid() and form.cleaned_data["maybe"] is None
    assert errors("") == ["This field is required."]


def test_the_widget_writes_initial_values_in_utc_and_names_the_zone() -> None:
    paris = datetime(2026, 12, 1, 21, 30, tzinfo=ZoneInfo("Europe/Paris"))
    html = str(WhenForm(initial={"when": paris})["when"])
    assert 'type="datetime-local"' in html
    assert 'value="2026-12-01T20:30"' in html
    assert '<input type="hidden" name="tz" value="UTC" data-local-tz>' in html


def test_a_form_shown_again_keeps_the_posted_value_and_its_zone() -> None:
    form = WhenForm({"when": "2026-03-29T02:30", "tz": "Europe/Paris"})
    assert not form.is_valid()
    html = str(form["when"])
    assert 'value="2026-03-29T02:30"' in html
    assert 'name="tz" value="Europe/Paris"' in html
    # A zone the server does not know is shown as what it read the value in: UTC.
    assert 'name="tz" value="UTC"' in str(WhenForm({"when": "x", "tz": "Nowhere/Else"})["when"])


def render(moment: object) -> str:
    return Template("{% load local_time %}{% local_time moment %}").render(
        Context({"moment": moment})
    )


def test_the_tag_writes_utc_for_the_script_to_rewrite() -> None:
    paris = datetime(2026, 12, 1, 21, 30, 5, tzinfo=ZoneInfo("Europe/Paris"))
    assert render(paris) == (
        '<time datetime="2026-12-01T20:30:05Z" data-local>2026-12-01 20:30 UTC</time>'
    )
    assert render(datetime(2026, 7, 1, 8, 0, tzinfo=timezone(timedelta(hours=-4)))) == (
        '<time datetime="2026-07-01T12:00:00Z" data-local>2026-07-01 12:00 UTC</time>'
    )


def test_the_tag_of_nothing_is_the_given_text_escaped() -> None:
    assert render(None) == ""
    tag = Template("{% load local_time %}{% local_time none fallback %}")
    assert tag.render(Context({"fallback": "<not set>"})) == "&lt;not set&gt;"
