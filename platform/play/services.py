"""Writing for people's matches: starting one (limits, the match row, dispatch), holding a
seat from one browser tab, and acting or resigning for it. Every check that can fail for a
user raises :class:`PlayError` with a message and an HTTP status for the view."""

from __future__ import annotations

import secrets
import time
from datetime import timedelta
from typing import Any

from bots.models import BotVersion, VersionStatus
from bots.services import person_version
from catalog.models import Game
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from matches.models import Match, MatchKind, MatchStatus
from matches.services import create_match, dispatch_match

from play import channel as ch
from play.models import PlaySeat

_OPEN = (MatchStatus.QUEUED, MatchStatus.RUNNING, MatchStatus.RECORDING)


class PlayError(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def open_limit() -> int:
    return int(getattr(settings, "ARENA_HUMAN_OPEN_LIMIT", 2))


def daily_limit() -> int:
    return int(getattr(settings, "ARENA_HUMAN_DAILY_LIMIT", 30))


def start_match(
    *,
    user: User,
    game: Game,
    seats: list[BotVersion | None],
    options: dict[str, Any] | None = None,
) -> Match:
    """A queued, unrated match in which ``None`` seats are ``user`` and the others the given
    bot versions; dispatched to the workers once committed. Per-user limits (unfinished
    matches, matches a day) are counted in the database, so they hold across processes."""
    if not any(s is None for s in seats):
        raise PlayError("Take at least one seat yourself.")
    for v in seats:
        if v is not None and (v.status == VersionStatus.PERSON or v.bot.game_id != game.pk):
            raise PlayError(f"{v.label} cannot play {game.name} here.")
    with transaction.atomic():
        # one user's starts queue up on their own row, so two at once cannot both pass the limit
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine = PlaySeat.objects.filter(user=user)
        unfinished = mine.filter(match__status__in=_OPEN).values("match").distinct().count()
        if unfinished >= open_limit():
            raise PlayError(
                f"You have {unfinished} unfinished games (at most {open_limit()}): "
                "finish or resign one first.",
                429,
            )
        since = timezone.now() - timedelta(days=1)
        today = mine.filter(created_at__gte=since).values("match").distinct().count()
        if today >= daily_limit():
            raise PlayError(
                f"You played {today} games in the last 24 hours (at most "
                f"{daily_limit()}): come back later.",
                429,
            )
        human = person_version(game)
        try:
            match = create_match(
                game=game,
                versions=[human if s is None else s for s in seats],
                seed=secrets.randbits(62),
                options=options or {},
                kind=MatchKind.HUMAN,
                rated=False,
            )
        except ValidationError as exc:
            raise PlayError(" ".join(exc.messages)) from exc
        PlaySeat.objects.bulk_create(
            [PlaySeat(match=match, seat=i, user=user) for i, s in enumerate(seats) if s is None]
        )
        transaction.on_commit(lambda: dispatch_match(match))
    return match


def _seat_of(user: User, match_id: int, seat: int) -> PlaySeat:
    found = PlaySeat.objects.filter(match_id=match_id, seat=seat).select_related("match").first()
    if found is None:
        raise PlayError("No such seat.", 404)
    if found.user_id != user.pk:
        raise PlayError("This seat is another player's.", 403)
    return found


def claim_tab(user: User, match_id: int, seat: int, token: str = "") -> str:
    """Let one browser tab hold the seat: the tab that holds it (the same token, e.g. after a
    reload) keeps it; another tab gets it only once the holder stopped polling for the leave
    timeout. Returns the tab's token. Once the match is over there is nothing to hold: any tab
    of the player may show its end."""
    if _seat_of(user, match_id, seat).match.is_done:
        return token or secrets.token_urlsafe(18)
    c = ch.play_cache()
    k = ch.key(match_id, seat, "tab")
    if token and c.get(k) == token:
        _beat(c, match_id, seat, token)
        return token
    fresh = secrets.token_urlsafe(18)
    if not c.add(k, fresh, ch.leave_s()):
        raise PlayError(
            "This seat is being played in another tab or window. Close it, or wait "
            f"{ch.leave_s()} s after closing it.",
            409,
        )
    _beat(c, match_id, seat, fresh)
    return fresh


def _beat(c: Any, match_id: int, seat: int, token: str) -> None:
    c.set(ch.key(match_id, seat, "tab"), token, ch.leave_s())
    c.set(ch.key(match_id, seat, "beat"), time.time(), ch.KEY_TTL_S)


def _holder(user: User, match_id: int, seat: int, token: str) -> Any:
    return _hold(_seat_of(user, match_id, seat), token)


def _hold(found: PlaySeat, token: str) -> Any:
    """The play cache, if the tab with ``token`` holds this seat of an unfinished match."""
    if found.match.is_done:
        # after the end the hold lapses (nobody polls to keep it): say what really happened
        raise PlayError("The game is over: there is nothing to play any more.", 409)
    c = ch.play_cache()
    if not token or c.get(ch.key(found.match_id, found.seat, "tab")) != token:
        raise PlayError("Another tab holds this seat now: this one cannot act for it.", 409)
    return c


def poll(user: User, match_id: int, seat: int, token: str) -> dict[str, Any]:
    """The tab's heartbeat: keeps its hold on the seat and returns what to show: the match,
    the pending decision, and once the match is over (for any tab of the player) its end as
    the worker left it (``done``: the result and the last position's pictures), or None."""
    found = _seat_of(user, match_id, seat)
    if found.match.is_done:
        end = ch.play_cache().get(ch.key(match_id, seat, "done"))
        return {"match": found.match, "request": None, "end": end}
    c = _hold(found, token)
    _beat(c, match_id, seat, token)
    return {"match": found.match, "request": c.get(ch.key(match_id, seat, "req")), "end": None}


def act(user: User, match_id: int, seat: int, token: str, turn: int, index: int) -> None:
    """Answer the pending decision ``turn`` with legal index ``index`` (first answer wins)."""
    c = _holder(user, match_id, seat, token)
    pending = c.get(ch.key(match_id, seat, "req"))
    if not pending or pending.get("turn") != turn:
        raise PlayError("That decision is not pending any more.", 409)
    if not 0 <= index < len(pending["labels"]):
        raise PlayError(f"Choose an action from 0 to {len(pending['labels']) - 1}.")
    if not c.add(ch.key(match_id, seat, f"ans:{turn}"), index, ch.KEY_TTL_S):
        raise PlayError("That decision was already answered.", 409)


def resign(user: User, match_id: int, seat: int, token: str) -> None:
    c = _holder(user, match_id, seat, token)
    c.set(ch.key(match_id, seat, "resign"), True, ch.KEY_TTL_S)
