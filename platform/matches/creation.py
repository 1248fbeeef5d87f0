"""Making matches: ``create_match`` (one queued match and its seats) and ``create_matches``
(a competition's round: the same checks, two inserts whatever the number). Callers import
them from ``matches.services``, which holds the rest of a match's life."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.models import Bot, BotVersion, VersionStatus
from catalog.models import Game
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from arena.contract import ContractError, TimeControl
from games.base import GameError
from games.registry import get_game
from matches.models import Match, MatchKind, MatchSeat

_SEED_MASK = (1 << 63) - 1


def clamp_seed(seed: int) -> int:
    """Seeds from ``games.rng.derive_seed`` are 64-bit unsigned; columns are signed 64-bit."""
    return int(seed) & _SEED_MASK


def create_match(
    *,
    game: Game,
    versions: Sequence[BotVersion],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time_control: dict[str, int] | None = None,
    kind: str = MatchKind.STANDALONE,
    rated: bool = True,
) -> Match:
    """A queued match with one seat per version (in seat order). Checks player count, options
    and time control here, so a bad setup is a ValidationError and never a failed task. The
    app that asks for the match (``kind``) keeps why on its own side, in the caller's
    transaction (``competitions.scheduling``, ``ladder.services``)."""
    options, time = _checked_setup(game, [versions], options, time_control, kind)
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            seed=clamp_seed(seed),
            options=options,
            time_control=time.to_json(),
            kind=kind,
            rated=rated,
        )
        MatchSeat.objects.bulk_create(
            [MatchSeat(match=match, seat=i, bot_version=v) for i, v in enumerate(versions)]
        )
    return match


def create_matches(
    *,
    game: Game,
    seatings: Sequence[tuple[Sequence[BotVersion], int]],
    options: dict[str, Any] | None = None,
    kind: str = MatchKind.STANDALONE,
    rated: bool = True,
    audience_id: int | None = None,
    time_control: dict[str, int] | None = None,
) -> list[Match]:
    """``create_match`` for many matches at once (a competition's round): each seating is the
    seats' versions and the seed; the same checks, then the matches and their seats in two
    inserts whatever their number. ``audience_id``: who may see them (None: everyone)."""
    options, time = _checked_setup(game, [vs for vs, _ in seatings], options, time_control, kind)
    with transaction.atomic():
        matches = Match.objects.bulk_create(
            [
                Match(
                    game=game,
                    seed=clamp_seed(seed),
                    options=options,
                    time_control=time.to_json(),
                    kind=kind,
                    rated=rated,
                    audience_id=audience_id,
                )
                for _, seed in seatings
            ]
        )
        MatchSeat.objects.bulk_create(
            [
                MatchSeat(match=m, seat=i, bot_version=v)
                for m, (versions, _) in zip(matches, seatings, strict=True)
                for i, v in enumerate(versions)
            ]
        )
    return matches


def check_time_control(time_control: dict[str, int] | None) -> TimeControl:
    """A match's time control (None or {}: the default), checked: a ValidationError names
    what is wrong (competitions check their settings with it too)."""
    try:
        return TimeControl.from_json(time_control)
    except ContractError as exc:
        raise ValidationError(str(exc)) from exc


def check_fits_limit(time: TimeControl, limit_s: float) -> None:
    """A ValidationError when ``time``'s worst case cannot fit a match time limit of
    ``limit_s`` (the rule: ``TimeControl.check_fits``)."""
    try:
        time.check_fits(limit_s)
    except ValueError as exc:
        reason = str(exc)
        raise ValidationError(f"{reason[:1].upper()}{reason[1:]}: give a shorter one.") from None


def _checked_setup(
    game: Game,
    seatings: Sequence[Sequence[BotVersion]],
    options: dict[str, Any] | None,
    time_control: dict[str, int] | None,
    kind: str,
) -> tuple[dict[str, Any], TimeControl]:
    """The options and time control of matches of ``game`` with these seatings, checked (a
    ValidationError names what is wrong); a version whose bot is not loaded costs one query
    for them all."""
    options = dict(options or {})
    try:
        get_game(game.slug).check_options(options)
    except GameError as exc:
        raise ValidationError(str(exc)) from exc
    time = check_time_control(time_control)
    if time_control:
        # A time control given for these matches (the site's default is the operator's own).
        check_fits_limit(time, time_limit_s(kind))
    for versions in seatings:
        if not game.min_players <= len(versions) <= game.max_players:
            raise ValidationError(
                f"{game.name} is played by {game.players_label} players, not {len(versions)}."
            )
    everyone = [v for versions in seatings for v in versions]
    _check_bots_game(game, everyone)
    if kind != MatchKind.HUMAN and any(v.status == VersionStatus.PERSON for v in everyone):
        # a seat that waits for a person nobody sent: only the play page seats people
        raise ValidationError("A person's seat can only be taken on the play page, not by a bot.")
    return options, time


def time_limit_s(kind: str) -> int:
    """How long a worker may play a match: people think longer than bots."""
    if kind == MatchKind.HUMAN:
        return int(settings.ARENA_HUMAN_MATCH_TIME_LIMIT_S)
    return int(settings.ARENA_MATCH_TIME_LIMIT_S)


def _check_bots_game(game: Game, versions: Sequence[BotVersion]) -> None:
    """Every version is of a bot of ``game``: from the loaded bots, else one query."""
    loaded = [v for v in versions if BotVersion.bot.is_cached(v)]
    games = {v.bot_id: v.bot.game_id for v in loaded}
    rest = {v.bot_id for v in versions} - set(games)
    if rest:
        games.update(Bot.objects.filter(pk__in=rest).values_list("pk", "game_id"))
    for v in versions:
        if games[v.bot_id] != game.pk:
            raise ValidationError(f"{v.label} is a bot for {v.bot.game.name}, not {game.name}.")
