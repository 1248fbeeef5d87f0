"""``manage.py run_tournament ID``: start a draft tournament and play its matches."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from matches.models import MatchStatus

from competitions.models import Tournament, TournamentStatus
from competitions.progress import play_matches, print_standings
from competitions.services import start_tournament


class Command(BaseCommand):
    help = (
        "Start tournament ID (if still a draft) and play its queued matches, with a "
        "progress bar; prints the standings."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament_id", type=int)

    def handle(self, *args: Any, tournament_id: int, **options: Any) -> None:
        try:
            t = Tournament.objects.select_related("game").get(pk=tournament_id)
        except Tournament.DoesNotExist:
            raise CommandError(f"there is no tournament {tournament_id}") from None
        if t.status == TournamentStatus.DRAFT:
            try:
                start_tournament(t, dispatch=False)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from None
        queued = list(t.matches.filter(status=MatchStatus.QUEUED).order_by("pk"))
        play_matches(queued, label=t.name)
        print_standings(t)
