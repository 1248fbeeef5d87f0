"""Whether a caller may see one match (its page, steps, replay, logs, status): a public
match, everyone; a private competition's match, the members of its audience and staff. To
anyone else it does not exist (404, never 403: a refusal would confirm the id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audiences.selectors import may_see, overseen, visible_q
from django.db.models import Q

from matches.models import Match


@dataclass(frozen=True)
class Seen:
    """A match the caller may see; ``private``: only some may (no shared cache keeps it)."""

    private: bool

    @property
    def cache_scope(self) -> str:
        """The ``Cache-Control`` scope of anything drawn from this match."""
        return "private" if self.private else "public"


def seen_by(viewer: Any, field: str = "audience") -> Q:
    """The rows (matches, or rows reaching a match's audience as ``field``, e.g.
    "match__audience") ``viewer`` may see; None: anyone, so public ones only. Public matches,
    those of the audiences they belong to and those they oversee (a tournament's organiser:
    ``audiences.selectors.overseen``, which competitions supplies, so this app reads no
    table of theirs): two subqueries, so a list costs the same whatever its size."""
    if viewer is None:
        return Q(**{f"{field}__isnull": True})
    shown = visible_q(viewer, field)
    if not shown or not getattr(viewer, "is_authenticated", False):
        return shown  # staff (every row) or anonymous (public rows)
    return shown | Q(**{f"{field}_id__in": overseen(viewer).values("pk")})


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
        user.is_authenticated and overseen(user).filter(pk=audience_id).exists()
    ):
        return Seen(private=True)
    return None
