"""Friendly challenges: a user's bot against chosen bots of its game, unrated, within a daily
allowance."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta

from bots.models import Bot
from bots.selectors import playing_versions
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from matches.models import Match, MatchKind
from matches.services import create_match
from notifications.models import NotificationKind
from notifications.services import notify

from ladder.models import LadderMatch
from ladder.sending import send_on_commit


@transaction.atomic
def create_challenge(
    *, user: User, bot: Bot, opponents: Sequence[Bot], now: datetime | None = None
) -> Match:
    """A friendly (unrated) match of ``user``'s ``bot`` against chosen bots of its game,
    within ``ARENA_CHALLENGES_PER_DAY`` per user (counted in the database, under a lock on the
    user's row, so that parallel requests cannot pass the limit together)."""
    from django.contrib.auth import get_user_model

    now = now or timezone.now()
    if bot.owner_id != user.pk:
        raise ValidationError("You can only challenge with a bot of your own.")
    game = bot.game
    others = list(dict.fromkeys(opponents))
    if not others:
        raise ValidationError("Choose at least one bot to challenge.")
    if bot in others:
        raise ValidationError(f"{bot.name} cannot challenge itself.")
    wrong = [o.name for o in others if o.game_id != game.pk]
    if wrong:
        raise ValidationError(f"Not bots for {game.name}: {', '.join(wrong)}.")
    seats = 1 + len(others)
    if not game.min_players <= seats <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players: choose "
            f"{max(1, game.min_players - 1)} to {game.max_players - 1} opponents, not "
            f"{len(others)}."
        )
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    limit = settings.ARENA_CHALLENGES_PER_DAY
    used = LadderMatch.objects.filter(
        kind=MatchKind.CHALLENGE, challenger=user, created_at__gte=now - timedelta(days=1)
    ).count()
    if used >= limit:
        raise ValidationError(
            f"You have used your {limit} challenges of the last 24 hours; try again later."
        )
    versions = playing_versions([bot.pk, *(o.pk for o in others)])
    missing = [b.name for b in [bot, *others] if b.pk not in versions]
    if missing:
        raise ValidationError(f"No qualified version to play with: {', '.join(missing)}.")
    match = create_match(
        game=game,
        versions=[versions[bot.pk], *(versions[o.pk] for o in others)],
        seed=random.getrandbits(63),
        kind=MatchKind.CHALLENGE,
        rated=False,
    )
    LadderMatch.objects.create(match=match, game=game, kind=MatchKind.CHALLENGE, challenger=user)
    send_on_commit(match)
    return match


def challenge_played(lm: LadderMatch, match: Match) -> None:
    """Tell the challenger how their bot did (inside the match's recording transaction; the
    email leaves once it commits). The challenger's bot sits in seat 0."""
    if lm.challenger_id is None:
        return
    seats = sorted(match.seats.select_related("bot_version__bot"), key=lambda s: s.seat)
    mine = seats[0]
    others = ", ".join(s.bot_version.bot.name for s in seats[1:])
    placed = f"placed {mine.rank} of {len(seats)}" if mine.rank else "finished"
    notify(
        lm.challenger_id,
        NotificationKind.CHALLENGE_PLAYED,
        f"Challenge played: {mine.bot_version.bot.name} {placed}",
        reverse("matches:detail", args=[match.pk]),
        body=f"{match.game.name}, against {others}.",
    )
