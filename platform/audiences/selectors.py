"""Who sees what: one condition for every list of private-able rows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q, QuerySet

from audiences.models import Audience, AudienceMember, AudienceRole

#: The audiences a user oversees without being one of their members (a tournament's
#: organiser sees all of it): the app that owns that link registers the query at start-up
#: (``competitions``, in its ``AppConfig.ready``), so the apps below it, which show private
#: rows (matches), never read its tables.
_overseen: list[Callable[[Any], QuerySet[Audience]]] = []


def register_overseer(audiences_of: Callable[[Any], QuerySet[Audience]]) -> None:
    """Add ``audiences_of(user)``: more audiences ``user`` sees without being a member."""
    if audiences_of not in _overseen:
        _overseen.append(audiences_of)


def overseen(user: Any) -> QuerySet[Audience]:
    """The audiences ``user`` oversees (see ``register_overseer``): a query, for a subquery."""
    if len(_overseen) == 1:
        return _overseen[0](user)  # the usual case: the query as its owner wrote it
    if not _overseen:
        return Audience.objects.none()
    anyof = Q()
    for audiences_of in _overseen:
        anyof |= Q(pk__in=audiences_of(user).values("pk"))
    return Audience.objects.filter(anyof)


def visible_q(user: Any, field: str = "audience") -> Q:
    """Rows whose ``field`` (an Audience foreign key; null is public) ``user`` may see: staff
    see all, anyone else the public ones and those of audiences they belong to. A subquery,
    not a join, so it neither multiplies rows nor grows with the audiences' sizes."""
    if getattr(user, "is_staff", False) and user.is_active:
        return Q()
    public = Q(**{f"{field}__isnull": True})
    if not getattr(user, "is_authenticated", False):
        return public
    mine = AudienceMember.objects.filter(user=user).values("audience_id")
    return public | Q(**{f"{field}_id__in": mine})


def may_see(user: Any, audience_id: int | None) -> bool:
    """Whether ``user`` may see one row of that audience (None: public)."""
    if audience_id is None:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff and user.is_active:
        return True
    return AudienceMember.objects.filter(audience_id=audience_id, user=user).exists()


def role_of(user: Any, audience_id: int | None) -> str | None:
    """``user``'s role in the audience (None: not in it)."""
    if audience_id is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        AudienceMember.objects.filter(audience_id=audience_id, user=user)
        .values_list("role", flat=True)
        .first()
    )


__all__ = ["AudienceRole", "may_see", "overseen", "register_overseer", "role_of", "visible_q"]
