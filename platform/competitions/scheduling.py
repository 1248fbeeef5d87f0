"""A competition's matches: made by ``matches.services.create_matches`` with their
:class:`CompetitionMatch` links (tournament or league, and round) in the same transaction, so
that no match of a competition exists without its link; three inserts for a round of any
size."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bots.models import BotVersion
from catalog.models import Game
from django.db import transaction
from matches.models import Match, MatchKind
from matches.services import create_matches

from competitions.models import CompetitionMatch, League, Tournament, Visibility


@dataclass(frozen=True)
class Table:
    """One match to make: its seats' versions in seat order, and its seed."""

    versions: Sequence[BotVersion]
    seed: int


def create_round_matches(
    competition: Tournament | League,
    *,
    round: int,
    game: Game,
    tables: Sequence[Table],
    options: dict[str, Any] | None = None,
) -> list[Match]:
    """Queued matches of round ``round`` of a tournament or a league, one per table, each
    linked to its competition (matches, seats and links: one insert each). Checks as
    ``create_match`` does. A private tournament's matches carry its audience (only its
    members see them) and are rated only when it is rated on the ladder; a league's are
    public and rated."""
    tournament = competition if isinstance(competition, Tournament) else None
    league = competition if isinstance(competition, League) else None
    kind = MatchKind.TOURNAMENT if tournament else MatchKind.LEAGUE
    with transaction.atomic():
        matches = create_matches(
            game=game,
            seatings=[(t.versions, t.seed) for t in tables],
            options=options,
            kind=kind,
            # The tournament's chosen time control ({}: the site's default).
            time_control=tournament.time_control or None if tournament else None,
            **_privacy(tournament),
        )
        CompetitionMatch.objects.bulk_create(
            [
                CompetitionMatch(match=m, tournament=tournament, league=league, round=round)
                for m in matches
            ]
        )
    return matches


def _privacy(tournament: Tournament | None) -> dict[str, Any]:
    """Who sees a round's matches and whether they move the public ladder's ratings."""
    if tournament is None:
        return {"rated": True, "audience_id": None}
    private = tournament.visibility == Visibility.PRIVATE
    if private and tournament.audience_id is None:  # never made public by a missing row
        raise ValueError(f"private tournament {tournament.pk} has no audience")
    return {
        "rated": tournament.rated_on_ladder,
        "audience_id": tournament.audience_id if private else None,
    }


def link_of(match: Match) -> CompetitionMatch | None:
    """The competition a match was played for (None: not a competition's match). A match of
    another app's kind (ladder, challenge, people) costs no query."""
    if match.kind not in (MatchKind.TOURNAMENT, MatchKind.LEAGUE, MatchKind.STANDALONE):
        return None  # standalone: matches made before kinds existed may still be linked
    return CompetitionMatch.objects.filter(match_id=match.pk).first()
