"""Whether a caller may see one match (its page, steps, replay, logs, status): a public
match, everyone; a private competition's match, the members of its audience and staff. To
anyone else it does not exist (404, never 403: a refusal would confirm the id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audiences.models import Audience
from audiences.selectors import may_see, visible_q
from django.db.models import Q, QuerySet

from matches.models import Match


@dataclass(frozen=True)
class Seen:
    """A match the caller may see; ``private``: only some may (no shared cache keeps it)."""

    private: bool

    @property
    def cache_scope(self) -> str:
        """The ``Cache-Control`` scope of anything drawn from this match."""
        return "private" if self.private else "public"


def organised(user: Any) -> QuerySet[Audience]:
    """The audiences of the competitions ``user`` organises (through the audience's reverse
    relation ``tournament``, by name: this app does not import competitions). A tournament's
    organiser is not one of its members, yet sees all of it."""
    return Audience.objects.filter(tournament__organiser=user)


def seen_by(viewer: Any, field: str = "audience") -> Q:
    """The rows (matches, or rows reaching a match's audience as ``field``, e.g.
    "match__audience") ``viewer`` may see; None: anyone, so public ones only. Public matches,
    those of the audiences they belong to and those of the competitions they organise: two
    subqueries, so a list costs the same whatever its size."""
    if viewer is None:
        return Q(**{f"{field}__isnull": True})
    shown = visible_q(viewer, field)
    if not shown or not getattr(viewer, "is_authenticated", False):
        return shown  # staff (every row) or anonymous (public rows)
    return shown | Q(**{f"{field}_id__in": organised(viewer).values("pk")})


def seen(user: Any, pk: int) -> Seen | None:
    """The match ``pk`` as ``user`` may see it, or None (no such match, or not theirs to
    see). One query by primary key; a private match's membership is one or two more."""
    found = list(Match.objects.filter(pk=pk).values_list("audience_id", flat=True)[:1])
    if not found:
        return None
    audience_id = found[0]
    if audience_id is None:
        return Seen(private=False)
    if may_see(user, audience_id) or (
        user.is_authenticated and organised(user).filter(pk=audience_id).exists()
    ):
        return Seen(private=True)
    return None
