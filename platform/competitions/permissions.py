"""Who may organise (create tournaments and leagues: staff or the ``organisers`` group), who
manages a tournament (its organiser, its co-organisers, staff) and who sees it (public, or its
members). Shared by the REST API and the pages (docs/permissions.md)."""

from __future__ import annotations

from typing import Any

from audiences.models import Audience, AudienceMember, AudienceRole
from audiences.selectors import may_see, role_of
from django.db.models import Q, QuerySet

from competitions.models import League, Tournament, Visibility

#: Members of this group (or staff) may create tournaments and leagues.
ORGANISERS_GROUP = "organisers"


def may_organise(user: Any) -> bool:
    return bool(
        user.is_authenticated
        and (user.is_staff or user.groups.filter(name=ORGANISERS_GROUP).exists())
    )


def may_manage(user: Any, tournament: Tournament) -> bool:
    """Start, edit, add or remove entrants and members: the organiser, a co-organiser, staff."""
    if not user.is_authenticated:
        return False
    if user.is_staff or tournament.organiser_id == user.pk:
        return True
    return role_of(user, tournament.audience_id) == AudienceRole.ORGANISER


def may_start(user: Any, tournament: Tournament) -> bool:
    return may_manage(user, tournament)


def may_see_tournament(user: Any, tournament: Tournament) -> bool:
    """A public tournament: everyone; a private one: its members, organisers and staff (to
    anyone else it does not exist: pages answer 404)."""
    if tournament.visibility == Visibility.PUBLIC:
        return True
    if user.is_authenticated and tournament.organiser_id == user.pk:
        return True
    return may_see(user, tournament.audience_id)


def visible_tournaments_q(user: Any) -> Q:
    """The condition on ``Tournament`` rows for lists, as ``may_see_tournament`` decides."""
    if user.is_authenticated and user.is_staff and user.is_active:
        return Q()
    public = Q(visibility=Visibility.PUBLIC)
    if not user.is_authenticated:
        return public
    mine = AudienceMember.objects.filter(user=user).values("audience_id")
    return public | Q(organiser=user) | Q(audience_id__in=mine)


def may_run_league(user: Any, league: League) -> bool:
    """Play a league's round on demand: its organiser or staff (docs/permissions.md)."""
    return bool(user.is_authenticated and (user.is_staff or league.organiser_id == user.pk))


def organised_audiences(user: Any) -> QuerySet[Audience]:
    """The audiences of the tournaments ``user`` organises: an organiser is not one of its
    tournament's members, yet sees all of it, its matches too (registered with
    ``audiences.selectors.register_overseer`` when the app is ready)."""
    return Audience.objects.filter(tournament__organiser=user)


def visible_tournaments(viewer: Any) -> QuerySet[Tournament]:
    """The tournaments ``viewer`` may see: pages and endpoints answer 404 for any other (a
    private tournament exists for its members only)."""
    return Tournament.objects.filter(visible_tournaments_q(viewer))
