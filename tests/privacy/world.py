"""A site holding a private tournament beside public things, each played through the real
path (``start_tournament``, ``record_outcome``, the next rounds played by the eager worker):
the private tournament's organiser, a member, an outsider whose bot the organiser entered
(the hardest case: their own bot played, yet they are not a member), staff, and a public
tournament and a league as the control. The private tournament and its matches get ids far
from every other row's, so a response can be searched for them without false alarms."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bots.models import Bot, BotVersion
from competitions.entries.membership import add_member
from competitions.leagues.services import create_league, run_league_round
from competitions.models import Tournament
from competitions.tournaments.services import create_tournament, start_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from matches.models import Match, MatchStatus

from tests.scale.conftest import History
from tests.scale.test_every_url_queries import _other_rows

#: The private tournament's name: no answer to a non-member may hold it.
SECRET_NAME = "Quokka Secret Cup"
#: Where the ids of the private matches and of the private tournament start (apart, so that
#: a URL naming one never excuses the other).
PRIVATE_IDS_FROM = 987_650
PRIVATE_TOURNAMENT_FROM = 765_430


@dataclass
class World:
    staff: Any
    organiser: Any
    member: Any
    outsider: Any
    bot: Bot  # the outsider's bot, entered in both tournaments
    public: Tournament
    private: Tournament
    public_match: Match
    private_match: Match  # a finished private match where the outsider's bot sat
    league: int
    play_match: int
    private_ids: list[int] = field(default_factory=list)  # the private matches' ids


def _bump_ids(model: type[Any], start: int) -> None:
    """Make the next id of ``model``'s table past ``start`` and past every id it holds
    (PostgreSQL's sequences outlive a test's rolled-back rows; SQLite's do not)."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {table}")  # a model's own table: no input
        target = max(start, cursor.fetchone()[0] or 0)
        if connection.vendor == "postgresql":
            cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, target])
        else:
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            insert = "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)"
            cursor.execute(insert, [table, target])


def _bot(owner: Any, history: History, name: str) -> BotVersion:
    bot = Bot.objects.create(owner=owner, game=history.game, name=name)
    history.versions.append(bot.versions.create(number=1, builtin_name="builder"))
    return history.versions[-1]


def _finish_round(history: History, matches: list[Match]) -> None:
    """Record each queued match (the later rounds are played by the eager worker)."""
    for m in matches:
        m.refresh_from_db()
        if m.status == MatchStatus.QUEUED:
            history.finish(m)


def build_world(history: History) -> World:
    users = get_user_model().objects
    staff = users.create_superuser("boss", "boss@example.com", "pw")
    organiser = users.create_user("organiser", password="pw")
    organiser.groups.add(Group.objects.get_or_create(name="organisers")[0])
    member, outsider = users.create_user("member", password="pw"), users.create_user("outsider")
    history.add_bots(3)
    mine, theirs = _bot(member, history, "member-bot"), _bot(outsider, history, "outsider-bot")
    field_ = [mine, theirs, *history.versions[:2]]
    public = create_tournament(organiser=organiser, game=history.game, name="Open Cup",
                               entrants=field_)  # fmt: skip
    _finish_round(history, start_tournament(public, dispatch=False))
    league = create_league(game=history.game, name="Open League", players_per_match=2)
    _finish_round(history, run_league_round(league, dispatch=False))
    public_match = public.matches.filter(seats__bot_version=theirs).order_by("pk")[0]
    play_match = _other_rows(history, staff, public_match)
    _bump_ids(Match, PRIVATE_IDS_FROM)  # a match's competition link is keyed by the match
    _bump_ids(Tournament, PRIVATE_TOURNAMENT_FROM)
    private = create_tournament(
        organiser=organiser, game=history.game, name=SECRET_NAME, entrants=field_,
        visibility="private",
    )  # fmt: skip
    add_member(private, member.username)
    _finish_round(history, start_tournament(private, dispatch=False))
    private.refresh_from_db()
    ids = sorted(private.matches.values_list("pk", flat=True))
    chosen = private.matches.filter(seats__bot_version=theirs, status=MatchStatus.FINISHED)
    return World(
        staff=staff, organiser=organiser, member=member, outsider=outsider, bot=theirs.bot,
        public=public, private=private, public_match=public_match,
        private_match=chosen.order_by("pk")[0], league=league.pk, play_match=play_match,
        private_ids=ids,
    )  # fmt: skip
