"""``manage.py recalculate_ratings`` while matches are recorded (PostgreSQL): matches recorded
between its batches, one whose recording is in flight when it installs its result, and one
after it, all end as a serial replay of the history in the order ratings moved would leave
them. The interleaving is driven by events (the recalculation's progress callback and a
listener that holds a recording open), never by sleeps."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from bots.models import BotVersion
from bots.services import create_bot
from django.db import connection, connections
from matches.models import MatchSeat, MatchStatus
from matches.services import create_match, dispatch_match
from matches.signals import match_finished
from ratings.models import OpponentStat, Rating, RatingChange, SeatStat, VersionPeriod
from ratings.recalculation import recalculate_game

from arena.ratings import Skill, elo_match, openskill_match
from tests.conftest import missing_service

pytestmark = pytest.mark.django_db(transaction=True)
WAIT_S = 60  # a bound on a hang, not a timing margin: each wait ends on an event


@pytest.fixture
def field(builtin_versions: list[BotVersion]) -> list[BotVersion]:
    """Five distinct trnd bots (3 to 5 seats)."""
    if connection.vendor != "postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    owner = builtin_versions[0].bot.owner
    game = builtin_versions[0].bot.game
    extra = [create_bot(owner=owner, game=game, name=f"random-{i}") for i in range(3)]
    return [*builtin_versions, *(b.versions.create(number=1, builtin_name="random") for b in extra)]


def _record(versions: list[BotVersion], rng: random.Random) -> int:
    """One rated match among ``versions``, played and recorded by the worker's path."""
    game = versions[0].bot.game
    seats = rng.sample(versions, rng.choice([3, 4]))
    match = dispatch_match(create_match(game=game, versions=seats, seed=rng.randrange(999)))
    assert match.status == MatchStatus.FINISHED
    return match.pk


def _expected_ratings() -> dict[int, tuple[float, float, float, int]]:
    """An independent serial replay with arena's maths: every rated match in the order of its
    first rating change, from fresh ratings."""
    first: dict[int, int] = {}
    for cid, match_id in RatingChange.objects.order_by("id").values_list("id", "match_id"):
        first.setdefault(match_id, cid)
    state: dict[int, tuple[float, float, float, int]] = {}
    for match_id in sorted(first, key=first.__getitem__):
        seats = list(
            MatchSeat.objects.filter(match_id=match_id)
            .order_by("seat")
            .values_list("bot_version__bot_id", "rank")
        )
        bots, ranks = [b for b, _ in seats], [int(r or 0) for _, r in seats]
        before = [state.get(b, (1500.0, 25.0, 25 / 3, 0)) for b in bots]
        elos = elo_match([s[0] for s in before], ranks)
        skills = openskill_match([Skill(s[1], s[2]) for s in before], ranks)
        for bot, old, elo, skill in zip(bots, before, elos, skills, strict=True):
            state[bot] = (elo, skill.mu, skill.sigma, old[3] + 1)
    return state


def _snapshot() -> dict[str, Any]:
    return {
        "ratings": {
            r.bot_id: (r.elo, r.mu, r.sigma, r.ordinal, r.matches_played, r.provisional)
            for r in Rating.objects.all()
        },
        "changes": sorted(
            RatingChange.objects.values_list(
                "id",
                "match_id",
                "seat",
                "bot_id",
                "elo_before",
                "elo_after",
                "mu_after",
                "sigma_after",
            )
        ),
        "seats": sorted(
            SeatStat.objects.values_list(
                "version_id", "players", "seat", "played", "firsts", "rank_sum", "elo_change"
            )
        ),
        "opponents": sorted(
            OpponentStat.objects.values_list(
                "version_id", "opponent_id", "met", "ahead", "level", "behind"
            )
        ),
        "periods": sorted(
            VersionPeriod.objects.values_list(
                "version_id",
                "matches",
                "elo_start",
                "elo_end",
                "elo_high",
                "elo_low",
                "points",
                "stride",
            )
        ),
    }


class Pauses:
    """A progress callback that stops the recalculation at the first call of each chosen
    stage until the test lets it go on (it is then between two transactions)."""

    def __init__(self, *stages: str) -> None:
        self.reached = {s: threading.Event() for s in stages}
        self.go = {s: threading.Event() for s in stages}

    def __call__(self, stage: str, done: int) -> None:
        if stage in self.reached and not self.reached[stage].is_set():
            self.reached[stage].set()
            assert self.go[stage].wait(WAIT_S)

    def at(self, stage: str, then: Callable[[], None]) -> None:
        assert self.reached[stage].wait(WAIT_S), f"never reached {stage}"
        then()
        self.go[stage].set()


def _in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as exc:  # handed to the test
            out.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def _someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        return bool(cur.fetchone()[0])


def test_matches_recorded_during_a_recalculation_end_as_a_serial_replay(
    field: list[BotVersion],
) -> None:
    rng = random.Random(5)
    for _ in range(12):
        _record(field, rng)
    # What the recalculation must change: the first match's result was corrected (its ranks
    # reversed), so every later rating differs, and the stored ratings were damaged.
    first = RatingChange.objects.order_by("id").values_list("match_id", flat=True)[0]
    seats = list(MatchSeat.objects.filter(match_id=first).order_by("seat"))
    for seat, rank in zip(seats, reversed([s.rank for s in seats]), strict=True):
        MatchSeat.objects.filter(pk=seat.pk).update(rank=rank)
    assert len({s.rank for s in seats}) > 1
    Rating.objects.update(elo=1000.0, mu=20.0, sigma=5.0)

    pauses = Pauses("replayed", "counted")
    game_id = field[0].bot.game_id
    recalculation, result = _in_thread(lambda: recalculate_game(game_id, batch=6, progress=pauses))
    recorded: list[int] = []
    # Two matches between two of the replay's batches:
    pauses.at("replayed", lambda: recorded.extend(_record(field, rng) for _ in range(2)))

    held, release = threading.Event(), threading.Event()
    holder: list[tuple[threading.Thread, list[Any]]] = []

    def hold_open(sender: Any, match: Any, **_: Any) -> None:
        if not held.is_set():  # inside the recording's transaction, its ratings moved
            held.set()
            assert release.wait(WAIT_S)

    def record_then_hold_one() -> None:
        recorded.append(_record(field, rng))
        match_finished.connect(hold_open, order=150, uid="test.hold_open")
        holder.append(_in_thread(lambda: _record(field, random.Random(11))))
        assert held.wait(WAIT_S)

    try:
        # One match between two of the counting's batches, then one left in flight: the
        # recalculation must wait for it (counting its bots, or installing) and include it.
        pauses.at("counted", record_then_hold_one)
        for _ in range(WAIT_S * 50):
            if _someone_waits_on_a_lock():
                break
            threading.Event().wait(0.02)
        else:
            pytest.fail("the recalculation never waited for the recording in flight")
        release.set()
        held_thread, held_result = holder[0]
        held_thread.join(WAIT_S)
        recalculation.join(WAIT_S)
    finally:
        release.set()
        match_finished.disconnect("test.hold_open")
    assert not recalculation.is_alive() and not isinstance(result[0], BaseException), result
    assert isinstance(held_result[0], int), held_result
    recorded.append(held_result[0])
    recorded.append(_record(field, rng))  # after the swap: rated from the installed ratings

    rated = set(RatingChange.objects.values_list("match_id", flat=True))
    assert set(recorded) <= rated and len(rated) == 12 + len(recorded)
    expected = _expected_ratings()
    stored = {r.bot_id: (r.elo, r.mu, r.sigma, r.matches_played) for r in Rating.objects.all()}
    assert set(stored) == set(expected)
    for bot, values in expected.items():
        assert stored[bot] == pytest.approx(values, rel=1e-12), bot
    # ... and a recalculation run alone afterwards finds nothing to change.
    during = _snapshot()
    recalculate_game(game_id)
    assert _snapshot() == during


def test_a_second_run_of_the_same_game_at_once_is_refused(field: list[BotVersion]) -> None:
    import psycopg
    from django.core.management import CommandError, call_command
    from ratings import game_lock

    game = field[0].bot.game
    s = connection.settings_dict
    other = psycopg.connect(
        host=s["HOST"], port=s["PORT"], user=s["USER"], password=s["PASSWORD"], dbname=s["NAME"]
    )
    try:
        # Another session runs the game's recalculation.
        other.execute("SELECT pg_advisory_lock(%s, %s)", [game_lock.RUNNING, game.pk])
        with pytest.raises(CommandError, match=f"{game.slug} are being recalculated"):
            call_command("recalculate_ratings", "--game", game.slug)
    finally:
        other.close()
    call_command("recalculate_ratings", "--game", game.slug)  # its end frees the game
    with pytest.raises(CommandError, match="--batch must be 1 or more"):
        call_command("recalculate_ratings", "--batch", "0")
