"""Whether a caller may see one match (its page, steps, replay, logs, status): a public
match, everyone; a private competition's match, the members of its audience and staff. To
anyone else it does not exist (404, never 403: a refusal would confirm the id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audiences.selectors import may_see

from matches.models import Match


@dataclass(frozen=True)
class Seen:
    """A match the caller may see; ``private``: only some may (no shared cache keeps it)."""

    private: bool

    @property
    def cache_scope(self) -> str:
        """The ``Cache-Control`` scope of anything drawn from this match."""
        return "private" if self.private else "public"


def seen(user: Any, pk: int) -> Seen | None:
    """The match ``pk`` as ``user`` may see it, or None (no such match, or not theirs to
    see). One query by primary key; a private match's membership is one more."""
    row = Match.objects.filter(pk=pk).values_list("audience_id", flat=True)[:1]
    found = list(row)
    if not found:
        return None
    audience_id = found[0]
    if audience_id is not None and not may_see(user, audience_id):
        return None
    return Seen(private=audience_id is not None)
