"""Reading the ladder. Every query here is bounded by the ladder's size or by the matches in
flight, never by the match history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bots.models import Bot, BotVersion
from catalog.models import Game
from django.conf import settings
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from ratings.models import Rating

from ladder.models import LadderEntry, LadderMatch

#: A match being recorded is still in flight: its bots are not free yet.
INFLIGHT = (MatchStatus.QUEUED, MatchStatus.RUNNING, MatchStatus.RECORDING)


def inflight_ladder_matches(game: Game) -> int:
    """Ladder matches of ``game`` queued or running (what the budget counts). The query names
    only the status, so every database uses that index: its cost follows the matches in flight
    (all games), never the history."""
    return sum(
        1
        for game_id, kind in Match.objects.filter(status__in=INFLIGHT)
        .order_by()
        .values_list("game_id", "kind")
        if game_id == game.pk and kind == MatchKind.LADDER
    )


def busy_bot_ids(game: Game) -> set[int]:
    """Bots seated in a queued or running match of ``game`` of any kind: they sit out. As
    above, selected by status alone."""
    return {
        bot_id
        for bot_id, game_id in MatchSeat.objects.filter(match__status__in=INFLIGHT)
        .order_by()
        .values_list("bot_version__bot_id", "match__game_id")
        if game_id == game.pk
    }


def rating_rows(game: Game) -> dict[int, tuple[float, float, int]]:
    """``bot_id -> (mu, sigma, matches_played)`` for the rated bots of ``game``."""
    return {
        bot: (mu, sigma, played)
        for bot, mu, sigma, played in Rating.objects.filter(game=game)
        .order_by()
        .values_list("bot_id", "mu", "sigma", "matches_played")
    }


# ------------------------------------------------------------------------------ bot pages


def _public_seats(bot: Bot) -> QuerySet[MatchSeat]:
    """The bot's seats in finished public matches: its page's form and head-to-head are the
    same for every viewer (cached), so a private competition's matches are never in them."""
    return MatchSeat.objects.filter(
        bot_version__bot=bot, match__status=MatchStatus.FINISHED, match__audience=None
    )


@dataclass(frozen=True)
class FormRow:
    match_id: int
    rank: int | None
    seats: int
    status: str
    kind: str
    finished_at: Any


def recent_form(bot: Bot, limit: int = 10) -> list[FormRow]:
    """The bot's last ``limit`` finished matches: its rank out of how many seats (two queries
    bounded by ``limit``: its newest seats, then the seat counts of those matches)."""
    rows = list(
        _public_seats(bot)
        .order_by("-match_id")
        .values_list("match_id", "rank", "status", "match__kind", "match__finished_at")[:limit]
    )
    sizes = dict(
        MatchSeat.objects.filter(match_id__in=[r[0] for r in rows])
        .values("match_id")
        .annotate(n=Count("id"))
        .values_list("match_id", "n")
    )
    return [FormRow(m, r, sizes.get(m, 0), s or "ok", k or "", f) for m, r, s, k, f in rows]


@dataclass
class HeadToHead:
    opponent: Bot
    met: int = 0
    ahead: int = 0  # matches where this bot finished above the opponent
    behind: int = 0
    level: int = 0


def history_stamp_key(bot_id: int) -> str:
    """The ``foundation.stamps`` number of a bot's match history (rating chart, recent form, head
    to head): bumped after each recorded match of the bot commits (``receivers``); its page
    caches those drawn parts under it."""
    return f"bot-history:{bot_id}"


def head_to_head(bot: Bot, *, recent: int = 200, top: int = 5) -> list[HeadToHead]:
    """Records against the bots met most in the last ``recent`` finished matches: who finished
    ahead, seat by seat (two queries, bounded by ``recent``)."""
    mine = dict(_public_seats(bot).order_by("-match_id").values_list("match_id", "rank")[:recent])
    if not mine:
        return []
    table: dict[int, HeadToHead] = {}
    others = (
        MatchSeat.objects.filter(match_id__in=list(mine))
        .exclude(bot_version__bot=bot)
        .values_list("match_id", "rank", "bot_version__bot_id")
    )
    for match_id, rank, other in others:
        row = table.get(other)
        if row is None:
            row = table[other] = HeadToHead(opponent=Bot(pk=other))
        row.met += 1
        own = mine[match_id]
        if own is None or rank is None or own == rank:
            row.level += 1
        elif own < rank:
            row.ahead += 1
        else:
            row.behind += 1
    best = sorted(table.values(), key=lambda h: (-h.met, h.opponent.pk))[:top]
    bots = Bot.objects.select_related("owner").in_bulk([h.opponent.pk for h in best])
    for h in best:
        h.opponent = bots[h.opponent.pk]
    return best


def ladder_entry(bot: Bot) -> LadderEntry | None:
    return LadderEntry.objects.filter(bot=bot).first()


def qualification_matches(versions: list[BotVersion]) -> dict[int, int]:
    """``version id -> id of its latest qualification match``."""
    out: dict[int, int] = {}
    for version_id, match_id in (
        LadderMatch.objects.filter(kind=MatchKind.QUALIFICATION, version__in=versions)
        .order_by("match_id")
        .values_list("version_id", "match_id")
    ):
        out[version_id] = match_id
    return out


def challenges_left(user: Any) -> int:
    used = LadderMatch.objects.filter(
        kind=MatchKind.CHALLENGE,
        challenger=user,
        created_at__gte=timezone.now() - timedelta(days=1),
    ).count()
    return max(0, settings.ARENA_CHALLENGES_PER_DAY - used)


def ladder_entries(bots: list[Bot]) -> dict[int, LadderEntry]:
    return {e.bot_id: e for e in LadderEntry.objects.filter(bot__in=bots)}


def challenge_candidates(bot: Bot, limit: int = 30) -> list[Bot]:
    """Other bots of the game that could sit with ``bot`` in a challenge (a bounded list)."""
    return list(
        Bot.objects.filter(game=bot.game, ladder_entry__isnull=False)
        .exclude(pk=bot.pk)
        .select_related("owner")
        .order_by("name")[:limit]
    )


def ratings_of(game: Game, bot_ids: list[int]) -> dict[int, Any]:
    return {r.bot_id: r for r in Rating.objects.filter(game=game, bot_id__in=bot_ids)}


def ladder_board(game: Game) -> QuerySet[LadderEntry]:
    """A game's ladder entries, best rated first (unrated last), then by name: ordered in the
    query (each entry's ordinal by a subquery on the ratings' unique (bot, game) index), so
    that a page of it reads only its own rows."""
    ordinal = Rating.objects.filter(game=game, bot_id=OuterRef("bot_id")).values("ordinal")
    return (
        LadderEntry.objects.filter(game=game)
        .select_related("bot__owner")
        .annotate(ordinal=Subquery(ordinal[:1]))
        .order_by(F("ordinal").desc(nulls_last=True), "bot__name", "bot_id")
    )


def held(game: Game) -> QuerySet[LadderEntry]:
    """The game's bots held out of the ranking: in placement or suspended."""
    return LadderEntry.objects.filter(game=game).filter(
        Q(placement_owed__gt=0) | Q(suspended_at__isnull=False)
    )


def in_placement(game: Game) -> QuerySet[LadderEntry]:
    """Bots playing their placement matches (not suspended), by name: a list to page."""
    return (
        LadderEntry.objects.filter(game=game, placement_owed__gt=0, suspended_at__isnull=True)
        .select_related("bot__owner")
        .order_by("bot__name", "bot_id")
    )


def suspended(game: Game) -> QuerySet[LadderEntry]:
    """Suspended bots, the latest suspended first: a list to page."""
    return (
        LadderEntry.objects.filter(game=game, suspended_at__isnull=False)
        .select_related("bot__owner")
        .order_by("-suspended_at", "bot_id")
    )
