"""Who may organise: create tournaments and leagues (staff or the ``organisers`` group) and
start a tournament (its organiser or staff). Shared by the REST API and the pages."""

from __future__ import annotations

from typing import Any

from competitions.models import League, Tournament

#: Members of this group (or staff) may create tournaments and leagues.
ORGANISERS_GROUP = "organisers"


def may_organise(user: Any) -> bool:
    return bool(
        user.is_authenticated
        and (user.is_staff or user.groups.filter(name=ORGANISERS_GROUP).exists())
    )


def may_start(user: Any, tournament: Tournament) -> bool:
    return bool(user.is_authenticated and (user.is_staff or tournament.organiser_id == user.pk))


def may_run_league(user: Any, league: League) -> bool:
    """Play a league's round on demand: its organiser or staff (docs/permissions.md)."""
    return bool(user.is_authenticated and (user.is_staff or league.organiser_id == user.pk))
