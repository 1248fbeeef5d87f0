"""Who sees what: one condition for every list of private-able rows."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from audiences.models import AudienceMember, AudienceRole


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


__all__ = ["AudienceRole", "may_see", "role_of", "visible_q"]
