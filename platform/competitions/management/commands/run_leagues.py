"""``manage.py run_leagues``: play the next round of every league that is due, now. Celery beat
plays due rounds by itself (``celery -A meeple beat`` in production; ``manage.py serve`` runs
beat locally), so this is for playing them at once, or with ``--force`` whether due or not."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from foundation.workers import background_workers

from competitions.leagues.services import due_leagues, run_league_round
from competitions.models import League
from competitions.progress import play_matches


class Command(BaseCommand):
    help = "Schedule and play one round of each active league whose interval has passed."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--force", action="store_true", help="play a round of every active league, due or not"
        )

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        leagues = list(League.objects.filter(is_active=True)) if force else due_leagues()
        if not leagues:
            self.stdout.write("No league is due.")
        # With no broker service, a worker of this command's plays the rounds (no beat: this
        # command is what schedules them).
        with background_workers(beat=False, people=False):
            for lg in leagues:
                matches = run_league_round(lg, dispatch=False)
                play_matches(matches, label=f"{lg.name} round {lg.rounds_played}")
                self.stdout.write(f"{lg.name}: round {lg.rounds_played}, {len(matches)} matches")
