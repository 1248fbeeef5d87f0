"""No wait of the referee outlives the match (arena/match_clock.py): a bot thinking far beyond
the match's deadline in one decision, or before answering ``start``, under a time control that
would allow it (an hour), is cut off at the deadline; so is a person's move. The match ends as
it ends between decisions (test_referee_deadline.py): an error naming the limit, bots stopped.

The bots sleep 600 s; a test tolerates 60 s, so the old referee (which waited out the
decision's clock) fails each one on the bound, however busy the machine."""

from __future__ import annotations

import time

from referee_helpers import descendants, seats_for

from arena.human_seat import HumanChannel, HumanEnd, HumanRequest, HumanTime
from arena.referee import TimeControl, run_match

#: Far beyond the deadline, and beyond what a test waits (TOLERATED_S).
SLEEP_S = 600
TOLERATED_S = 60
HOUR_MS = 3_600_000

THINKS_FOREVER = f"""
        def on_act(msg):
            if msg["turn"] >= 2:
                time.sleep({SLEEP_S})
            say({{"action_index": 0, "turn": msg["turn"]}})
"""

NEVER_READY = f"""
        def on_start(msg):
            time.sleep({SLEEP_S})
            say({{"type": "ready", "name": "late"}})
"""


def test_a_decision_longer_than_the_match_ends_at_the_deadline(small_game, make_bot):
    seats = seats_for(small_game)
    bots = [make_bot("forever", THINKS_FOREVER)] + [make_bot("good")] * (seats - 1)
    before = descendants()
    started = time.monotonic()
    out = run_match(
        small_game,
        bots,
        seed=3,
        time=TimeControl(start_ms=30_000, move_ms=HOUR_MS, bank_ms=0),
        sandbox="process",
        deadline_s=2,
    )
    took = time.monotonic() - started
    assert (out.status, out.error) == ("error", "the match took over 2 s")
    assert took < TOLERATED_S, took
    # It played up to the long decision, and the cut-off is the match's, not a fault of the
    # bot, which still had its hour.
    assert len(out.replay["decisions"]) >= 2
    assert out.seats[0].faults == []
    assert descendants() - before == set(), "bot processes left behind"


def test_a_start_longer_than_the_match_ends_at_the_deadline(small_game, make_bot):
    bots = [make_bot("late", NEVER_READY)] * seats_for(small_game)
    before = descendants()
    started = time.monotonic()
    out = run_match(
        small_game,
        bots,
        seed=3,
        time=TimeControl(start_ms=HOUR_MS, move_ms=1000, bank_ms=0),
        sandbox="process",
        deadline_s=2,
    )
    took = time.monotonic() - started
    assert (out.status, out.error) == ("error", "the match took over 2 s")
    assert took < TOLERATED_S, took
    assert out.replay["decisions"] == []
    assert all(seat.faults == [] for seat in out.seats)
    assert descendants() - before == set(), "bot processes left behind"


class _SilentPerson(HumanChannel):
    """A person who never answers: waits until the request's deadline (at most SLEEP_S s, so
    that the old referee's test ends, failing), then gives no decision."""

    def __init__(self) -> None:
        self.waited_until: list[float] = []

    def ask(self, request: HumanRequest) -> int | None:
        self.waited_until.append(request.deadline)
        time.sleep(max(0.0, min(request.deadline - time.time(), SLEEP_S)))
        return None

    def finish(self, end: HumanEnd) -> None:
        pass


def test_a_persons_move_longer_than_the_match_ends_at_the_deadline(small_game: str) -> None:
    channel = _SilentPerson()
    started = time.monotonic()
    out = run_match(
        small_game,
        ["human"] * seats_for(small_game),
        seed=3,
        human=channel,
        human_time=HumanTime(move_ms=HOUR_MS),
        deadline_s=2,
    )
    took = time.monotonic() - started
    assert (out.status, out.error) == ("error", "the match took over 2 s")
    assert took < TOLERATED_S, took
    assert len(channel.waited_until) == 1  # the one move asked, cut off at the deadline
    assert all(seat.faults == [] for seat in out.seats)
