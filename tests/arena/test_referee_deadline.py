"""The referee's own time limit (``run_match(deadline_s=...)``): a worker passes its task's
limit, so a match ends at it in every Celery pool, the solo pool (no timers) included."""

from __future__ import annotations

import time

from referee_helpers import descendants, seats_for

from arena.referee import TimeControl, run_match

SLOW = """
        def on_act(msg):
            time.sleep(0.2)
            say({"action_index": 0, "turn": msg["turn"]})
"""


def test_a_match_past_its_deadline_ends_as_an_error(small_game, make_bot):
    bots = [make_bot("slow", SLOW)] * seats_for(small_game)
    before = descendants()
    started = time.monotonic()
    out = run_match(
        small_game,
        bots,
        seed=3,
        time=TimeControl(start_ms=5000, move_ms=2000, bank_ms=0),
        sandbox="process",
        deadline_s=1,
    )
    took = time.monotonic() - started
    assert (out.status, out.error) == ("error", "the match took over 1 s")
    # It stopped before the next decision after the deadline (0.2 s each), bots and all; the
    # match would otherwise go on for every decision the game has.
    assert out.replay["decisions"], "it played until the deadline"
    assert took < 1 + 2.0 + 5, took  # the deadline, one decision's allowance, the bots' ends
    assert descendants() - before == set(), "bot processes left behind"


def test_no_deadline_no_limit(small_game, make_bot):
    out = run_match(small_game, [make_bot("good")] * seats_for(small_game), seed=3)
    assert out.status == "finished", out.error
