# Keep every past match's rating change: replay the rated history (finishing order) into
# RatingChange rows, which now hold what MatchSeat.elo_before/elo_after held, plus OpenSkill.

from django.db import migrations


def replay_history(apps, schema_editor):  # type: ignore[no-untyped-def]
    from arena.ratings import PROVISIONAL_MATCHES, MatchRecord, Skill, elo_match, openskill_match

    Match = apps.get_model("matches", "Match")
    MatchSeat = apps.get_model("matches", "MatchSeat")
    Rating = apps.get_model("ratings", "Rating")
    RatingChange = apps.get_model("ratings", "RatingChange")
    rated = (
        Match.objects.filter(status="finished", seats__elo_before__isnull=False)
        .distinct()
        .order_by("finished_at", "pk")
    )
    if not rated.exists():
        return
    state: dict[tuple[int, int], list[float]] = {}  # (game, bot) -> [elo, mu, sigma, played]
    for match in rated.iterator():
        seats = list(
            MatchSeat.objects.filter(match=match).select_related("bot_version").order_by("seat")
        )
        bots = [s.bot_version.bot_id for s in seats]
        ranks = [int(s.rank or 0) for s in seats]
        if not MatchRecord(bots=tuple(map(str, bots)), ranks=tuple(ranks)).rated:
            continue
        rows = [state.setdefault((match.game_id, b), [1500.0, 25.0, 25.0 / 3, 0]) for b in bots]
        elos = elo_match([r[0] for r in rows], ranks)
        skills = openskill_match([Skill(r[1], r[2]) for r in rows], ranks)
        for seat, bot, row, elo, skill in zip(seats, bots, rows, elos, skills, strict=True):
            RatingChange.objects.create(
                match_id=match.pk, seat=seat.seat, bot_id=bot, game_id=match.game_id,
                elo_before=row[0], elo_after=elo, mu_before=row[1], mu_after=skill.mu,
                sigma_before=row[2], sigma_after=skill.sigma,
            )
            row[:] = [elo, skill.mu, skill.sigma, row[3] + 1]
    for (game, bot), (elo, mu, sigma, played) in state.items():
        Rating.objects.update_or_create(
            game_id=game, bot_id=bot,
            defaults={
                "elo": elo, "mu": mu, "sigma": sigma, "ordinal": Skill(mu, sigma).ordinal,
                "matches_played": played, "provisional": played < PROVISIONAL_MATCHES,
            },
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_ratingchange"),
        ("matches", "0002_seat_stderr"),
    ]

    operations = [migrations.RunPython(replay_history, migrations.RunPython.noop)]
