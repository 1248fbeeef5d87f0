"""``manage.py run_tournament ID``: start a draft tournament and play its matches."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from foundation.workers import background_workers

from competitions.models import Tournament, TournamentStatus
from competitions.progress import follow_tournament, print_standings
from competitions.tournaments.services import start_tournament


class Command(BaseCommand):
    help = (
        "Start tournament ID (if still a draft) and follow it round by round with a progress "
        "bar until it finishes (workers play the matches); prints the standings."
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
                start_tournament(t)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from None
        with background_workers(people=False):
            follow_tournament(t, label=t.name)
        print_standings(t)
