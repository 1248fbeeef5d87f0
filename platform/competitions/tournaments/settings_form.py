"""The new-tournament form's settings beyond the format: who sees it and who enters, the entry
window (typed in the organiser's zone: ``foundation.fields.LocalDateTimeField``), caps, the
start, round spacing, the matches' time control and the public ladder. The service checks
them all again (``competitions.tournaments.settings``)."""

from __future__ import annotations

from typing import Any

from django import forms
from foundation.fields import LocalDateTimeField

from arena.contract import DEFAULT_TIME_CONTROL
from competitions.models import EntryPolicy, Visibility
from competitions.tournaments.settings import (
    MAX_ENTRIES,
    MAX_ENTRIES_PER_USER,
    MAX_MOVE_MS,
    MAX_ROUND_SPACING_HOURS,
    MAX_START_MS,
)

#: The time control's fields, by the key of ``arena.contract.TimeControl`` each fills.
TIME_FIELDS = {"time_start_ms": "start_ms", "time_move_ms": "move_ms", "time_bank_ms": "bank_ms"}


def _time_field(key: str, label: str, maximum: int | None, what: str) -> forms.IntegerField:
    default = getattr(DEFAULT_TIME_CONTROL, key)
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=maximum,
        help_text=f"{what} Blank: the site's default, {default} ms.",
    )


class TournamentSettingsForm(forms.Form):
    """Fields shared by the new-tournament form (it inherits them). Each may be left out: a
    form posted without them makes a public tournament whose organisers choose the field,
    as before these settings existed."""

    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        required=False,
        help_text="Private: only its members (invited by link or by name) see it, its matches "
        "and its standings, anywhere on the site.",
    )
    entry_policy = forms.ChoiceField(
        label="Entries",
        choices=EntryPolicy.choices,
        initial=EntryPolicy.ORGANISER,
        required=False,
        help_text="Who adds entrants. When users enter, each enters one of their own "
        "qualified bots and may swap or withdraw it until entries close.",
    )
    entries_open_at = LocalDateTimeField(
        label="Entries open", required=False, help_text="Blank: open now."
    )
    entries_close_at = LocalDateTimeField(
        label="Entries close", required=False, help_text="Blank: open until it starts."
    )
    max_entries = forms.IntegerField(
        label="Entry cap", required=False, min_value=1, max_value=MAX_ENTRIES
    )
    entries_per_user = forms.IntegerField(
        label="Entries per user",
        initial=1,
        required=False,
        min_value=1,
        max_value=MAX_ENTRIES_PER_USER,
    )
    start_at = LocalDateTimeField(
        label="Starts at",
        required=False,
        help_text="It starts by itself then. Blank: when entries close, or when an organiser "
        "presses Start if they never close.",
    )
    round_spacing_hours = forms.IntegerField(
        label="Hours between rounds",
        initial=0,
        required=False,
        min_value=0,
        max_value=MAX_ROUND_SPACING_HOURS,
        help_text="Swiss and knockout: 24 plays a round a day. 0: the next round as soon as "
        "the last one ends.",
    )
    time_start_ms = _time_field("start_ms", "Start time (ms)", MAX_START_MS, "To answer start.")
    time_move_ms = _time_field("move_ms", "Move time (ms)", MAX_MOVE_MS, "Per decision.")
    time_bank_ms = _time_field("bank_ms", "Time bank (ms)", None, "Extra for the whole match.")
    rate_private = forms.BooleanField(
        label="Rate a private tournament's matches on the public ladder",
        required=False,
        help_text="A public tournament's matches always count; a private one's only if ticked.",
    )

    def settings_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in TournamentSettingsForm.base_fields]

    def settings_kwargs(self) -> dict[str, Any]:
        """The settings' keyword arguments of ``create_tournament`` (after ``is_valid``)."""
        data = self.cleaned_data
        time = {key: data[name] for name, key in TIME_FIELDS.items() if data.get(name) is not None}
        private = data.get("visibility") == Visibility.PRIVATE
        return {
            "visibility": data.get("visibility") or Visibility.PUBLIC,
            "entry_policy": data.get("entry_policy") or EntryPolicy.ORGANISER,
            "entries_open_at": data.get("entries_open_at"),
            "entries_close_at": data.get("entries_close_at"),
            "max_entries": data.get("max_entries"),
            "entries_per_user": data.get("entries_per_user") or 1,
            "start_at": data.get("start_at"),
            "round_spacing_hours": data.get("round_spacing_hours") or 0,
            "time_control": time or None,
            "rated_on_ladder": bool(data.get("rate_private")) if private else True,
        }
