"""Console helpers of the management commands: playing matches behind a rich progress bar
and printing a tournament's standings as a table."""

from __future__ import annotations

import time
from collections.abc import Sequence

from django.conf import settings
from matches.models import Match, MatchStatus
from matches.services import dispatch_match
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from arena.tournament_legend import ordering_note
from competitions.models import Tournament, TournamentStatus
from competitions.tournaments.selectors import tournament_standings
from competitions.tournaments.services import DONE_STATUSES

console = Console()


def play_matches(matches: Sequence[Match], *, label: str, poll_s: float = 0.5) -> None:
    """Dispatch ``matches`` and show progress until all are done. In eager mode (no broker)
    each runs inline; with a broker they go to the workers and this polls the database."""
    if not matches:
        return
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[errors]} errors"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(label, total=len(matches), errors=0)
        errors = 0
        for m in matches:
            m = dispatch_match(m)
            if eager:
                errors += m.status == MatchStatus.ERROR
                progress.update(task, advance=1, errors=errors)
        if eager:
            return
        ids = [m.pk for m in matches]
        while True:
            done = Match.objects.filter(pk__in=ids, status__in=DONE_STATUSES)
            errors = done.filter(status=MatchStatus.ERROR).count()
            count = done.count()
            progress.update(task, completed=count, errors=errors)
            if count == len(ids):
                return
            time.sleep(poll_s)


def follow_tournament(tournament: Tournament, *, label: str, poll_s: float = 0.5) -> None:
    """Show a started tournament's progress until it finishes: its rounds are scheduled one
    after the other by the workers (or inline in eager mode) as results come in."""
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("round {task.fields[round]}, {task.fields[errors]} errors"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(label, total=tournament.planned_matches or None, errors=0, round=1)
        while True:
            tournament.refresh_from_db()
            # Matches never sent (created in a transaction whose commit hook did not run, as
            # inside a test's transaction): send them now; a second send is harmless.
            for m in tournament.matches.filter(status=MatchStatus.QUEUED, attempts=0):
                dispatch_match(m)
            done = tournament.matches.filter(status__in=DONE_STATUSES)
            progress.update(
                task,
                total=tournament.planned_matches or None,
                completed=done.count(),
                errors=done.filter(status=MatchStatus.ERROR).count(),
                round=tournament.current_round + 1,
            )
            if tournament.status == TournamentStatus.FINISHED:
                return
            time.sleep(poll_s)


def print_standings(tournament: Tournament) -> None:
    tournament.refresh_from_db()
    table = Table(
        title=f"{tournament.name} ({tournament.game.name}): {tournament.status}",
        caption=ordering_note(tournament.format),
        caption_justify="left",
    )
    columns = ("#", "bot", "points", "matches", "wins", "avg rank", "avg score", "faults")
    for col in (*columns, "Elo", "ordinal"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in tournament_standings(tournament):
        s = row.standing
        table.add_row(
            str(row.position),
            row.version.label,
            f"{row.points:.2f}",
            str(s.matches),
            str(s.wins),
            f"{s.avg_rank:.2f}" if s.avg_rank is not None else "-",
            f"{s.avg_score:.1f}" if s.avg_score is not None else "-",
            str(s.faults),
            f"{s.elo:.0f}",
            f"{s.ordinal:.2f}",
        )
    console.print(table)
    errors = tournament.matches.filter(status=MatchStatus.ERROR)
    for m in errors[:5]:
        console.print(f"[red]match {m.pk} failed:[/red] {m.error}")
