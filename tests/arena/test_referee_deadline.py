"""The referee's own time limit (``run_match(deadline_s=...)``): a worker passes its task's
limit, so a match ends at it in every Celery pool, the solo pool (no timers) included."""

from __future__ import annotations

import time

from referee_helpers import descendants, seats_for

from arena.referee import TimeControl, run_match
from arena.seats import ProgramSeat

#: The match's limit. The test does not wait for it: the clock is moved past it (below), so
#: it only has to be longer than the bots take to start on a machine however busy.
LIMIT_S = 120


def test_a_match_past_its_deadline_ends_as_an_error(small_game, make_bot, monkeypatch):
    """The clock passes the match's deadline during its first decision: the match ends as an
    error naming the limit before the next decision, its bots stopped. The clock is driven
    (``time.perf_counter``, which the referee and the seats read, jumps past the limit once
    the first decision is answered), so no part of this depends on how fast the machine is."""
    real = time.perf_counter
    ahead = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: real() + ahead[0])
    decide = ProgramSeat.decide

    def decide_then_jump(self, *args, **kwargs):
        choice = decide(self, *args, **kwargs)
        ahead[0] = 10 * LIMIT_S  # the answer came; the match is now long past its limit
        return choice

    monkeypatch.setattr(ProgramSeat, "decide", decide_then_jump)
    bots = [make_bot("good")] * seats_for(small_game)
    before = descendants()
    out = run_match(
        small_game,
        bots,
        seed=3,
        time=TimeControl(start_ms=LIMIT_S * 1000, move_ms=LIMIT_S * 1000, bank_ms=0),
        sandbox="process",
        deadline_s=LIMIT_S,
    )
    assert (out.status, out.error) == ("error", f"the match took over {LIMIT_S} s")
    # It stopped at the first decision after the deadline; the game had more to play.
    assert len(out.replay["decisions"]) == 1, out.replay["decisions"]
    assert descendants() - before == set(), "bot processes left behind"


def test_no_deadline_no_limit(small_game, make_bot):
    out = run_match(small_game, [make_bot("good")] * seats_for(small_game), seed=3)
    assert out.status == "finished", out.error
