# Existing leagues get their first season, their beat schedule and stored standings (folded
# once from their recorded matches, in order; later matches update the rows as they finish).

import json
from datetime import timedelta

from django.db import migrations
from django.utils import timezone


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    from arena.formats import StandingRow, match_points
    from arena.ratings import MatchRecord, standings

    League = apps.get_model("competitions", "League")
    Season = apps.get_model("competitions", "Season")
    LeagueStanding = apps.get_model("competitions", "LeagueStanding")
    Match = apps.get_model("matches", "Match")
    MatchSeat = apps.get_model("matches", "MatchSeat")
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    now = timezone.now()
    for lg in League.objects.all():
        season = Season.objects.create(
            league=lg, number=1, starts_at=lg.last_run_at or now, ends_at=None,
            rounds=max(lg.rounds_per_season, lg.rounds_played), first_round=1,
            rounds_played=lg.rounds_played,
        )
        every, _ = IntervalSchedule.objects.get_or_create(every=lg.every_hours, period="hours")
        PeriodicTask.objects.get_or_create(
            name=f"League {lg.pk}",
            defaults={
                "task": "competitions.play_league_round", "interval": every,
                "args": json.dumps([lg.pk]), "enabled": lg.is_active,
                "last_run_at": lg.last_run_at or now - timedelta(hours=lg.every_hours),
            },
        )
        records, rows = [], {}
        for m in Match.objects.filter(league=lg, status="finished").order_by("finished_at", "pk"):
            seats = list(MatchSeat.objects.filter(match=m).select_related("bot_version").order_by("seat"))
            bots = [str(s.bot_version.bot_id) for s in seats]
            if len(set(bots)) != len(bots):
                continue
            ranks = [int(s.rank) for s in seats]
            records.append(MatchRecord(bots=tuple(bots), ranks=tuple(ranks),
                                       seat_status=tuple(s.status or "ok" for s in seats)))
            for seat, (b, pts) in enumerate(zip(bots, match_points(ranks))):
                row = rows.setdefault(b, StandingRow(bot=b, seed=int(b)))
                row.points += pts
                row.matches += 1
                row.wins += ranks[seat] == 1
                row.seats = list(row.seats) + [0] * (seat + 1 - len(row.seats))
                row.seats[seat] += 1
                for o in bots:
                    if o != b:
                        row.opponents[o] = row.opponents.get(o, 0) + 1
        table = standings(records).by_bot()
        for scope in (season, None):
            for b, row in rows.items():
                st = table[b]
                LeagueStanding.objects.create(
                    league=lg, season=scope, bot_id=int(b), row=row.to_json(), points=row.points,
                    matches=st.matches, wins=st.wins, faults=st.faults, rank_sum=st.rank_sum,
                    score_sum=st.score_sum, scored=st.scored, rated=st.rated, elo=st.elo,
                    mu=st.mu, sigma=st.sigma, ordinal=st.ordinal,
                )


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0004_league_seasons"),
        ("matches", "0003_match_life_and_kind"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
