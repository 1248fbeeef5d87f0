"""audiences.selectors.overseen: the audiences a user sees without being a member, as the apps
that own such a link register them (competitions: a tournament's organiser)."""

from __future__ import annotations

import pytest
from audiences import selectors
from audiences.models import Audience
from competitions.permissions import organised_audiences
from django.contrib.auth.models import User


def test_competitions_registers_its_organisers() -> None:
    """Without it, an organiser would lose their private tournament's matches (matches.access
    asks audiences, never competitions)."""
    assert organised_audiences in selectors._overseen


@pytest.mark.django_db
def test_every_registered_overseer_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    user = User.objects.create_user("overseer")
    first, second, other = (Audience.objects.create(label=n) for n in ("a", "b", "c"))
    monkeypatch.setattr(selectors, "_overseen", [])
    assert list(selectors.overseen(user)) == []
    selectors.register_overseer(lambda u: Audience.objects.filter(pk=first.pk))
    assert list(selectors.overseen(user)) == [first]
    selectors.register_overseer(lambda u: Audience.objects.filter(pk=second.pk))
    assert set(selectors.overseen(user)) == {first, second}
    assert other not in selectors.overseen(user)
