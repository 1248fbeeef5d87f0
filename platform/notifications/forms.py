"""The settings page's switches: for each kind, on the site and by email."""

from __future__ import annotations

from typing import Any

from django import forms

from notifications.models import NotificationKind
from notifications.services import Channels


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    """Two checkboxes per kind (an unticked box is simply absent from the POST: off)."""

    def __init__(self, current: dict[str, Channels], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rows = []
        for kind in NotificationKind:
            now = current.get(kind.value, Channels())
            site = forms.BooleanField(required=False, initial=now.site, label="On the site")
            email = forms.BooleanField(required=False, initial=now.email, label="By email")
            # The table's header names the column; the box itself says its whole meaning.
            site.widget.attrs["aria-label"] = f"{kind.label}: on the site"
            email.widget.attrs["aria-label"] = f"{kind.label}: by email"
            self.fields[field_name(kind.value, "site")] = site
            self.fields[field_name(kind.value, "email")] = email
            self.rows.append(kind)

    def channels(self) -> dict[str, Channels]:
        """The choices posted, for every kind (after ``is_valid``)."""
        data = self.cleaned_data
        return {
            k.value: Channels(
                site=bool(data.get(field_name(k.value, "site"))),
                email=bool(data.get(field_name(k.value, "email"))),
            )
            for k in NotificationKind
        }

    def table(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        """(label, site box, email box) per kind, for the template."""
        return [
            (k.label, self[field_name(k.value, "site")], self[field_name(k.value, "email")])
            for k in self.rows
        ]
