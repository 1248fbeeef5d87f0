"""Timing fairness: a runtime's start-up (a JVM, Node) is charged to ``start_ms``, never to
the first move. The referee's clock for ``ready`` starts when ``start`` is sent
(arena/seat_start.py), and a decision's clock starts when its ``act`` is sent, after ``ready``
was read (arena/seats.py ``ProgramSeat.decide``)."""

from __future__ import annotations

from referee_helpers import descendants, seats_for

from arena.referee import TimeControl, run_match
from sandbox.base import Limits

BOOT_S = 1.5  # the bot's start-up before it reads anything: five times its move time
CLOCK = TimeControl(start_ms=10_000, move_ms=300, bank_ms=0)


def test_a_slow_start_up_counts_against_start_ms_not_the_first_move(small_game, make_bot):
    slow = make_bot("slow_boot", f"time.sleep({BOOT_S})  # a JVM's boot, before reading stdin")
    good = make_bot("good")
    before = descendants()
    out = run_match(
        small_game,
        [slow] + [good] * (seats_for(small_game) - 1),
        seed=3,
        time=CLOCK,
        limits=Limits(cpu_seconds=30),
    )
    assert out.status == "finished", out.error
    assert descendants() - before == set()
    seat = out.replay["seats"][0]
    assert out.seats[0].faults == [], out.seats[0].faults  # its first move was not late
    assert seat["ready_ms"] >= BOOT_S * 1000 * 0.9  # the boot went to start_ms
    first = next(d for d in out.replay["decisions"] if d["seat"] == 0)
    assert first["ms"] < CLOCK.move_ms and "fault" not in first


def test_a_start_up_beyond_start_ms_is_a_timeout_before_any_move(small_game, make_bot):
    slow = make_bot("slow_boot", f"time.sleep({BOOT_S})")
    out = run_match(
        small_game,
        [slow] + [make_bot("good")] * (seats_for(small_game) - 1),
        seed=3,
        time=TimeControl(start_ms=300, move_ms=5000, bank_ms=0),
        limits=Limits(cpu_seconds=30),
    )
    assert out.status == "finished", out.error
    faults = out.seats[0].faults
    assert faults and faults[0]["kind"] == "timeout" and faults[0]["turn"] is None, faults
    assert "no ready within start_ms=300" in faults[0]["detail"]
