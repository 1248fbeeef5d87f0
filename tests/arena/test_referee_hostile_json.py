"""A bot that writes hostile JSON commits a fault of its own, never a platform error: real bot
processes through the process sandbox and the referee (issue 18, item 4). Before the bounds,
an answer nested 100,000 deep made the decoder raise RecursionError and the match `error`."""

from __future__ import annotations

import pytest
from referee_helpers import descendants, seats_for

from arena import protocol as p
from arena.outcome import MatchOutcome
from arena.referee import TimeControl, run_match
from arena.replay import verify_replay
from sandbox.base import Limits

FAST = TimeControl(start_ms=5000, move_ms=500, bank_ms=2000)
# The default cap on a line (1 MiB): 100,000 levels fit well inside it.
LIMITS = Limits(cpu_seconds=30)
DEEP = 100_000


def play(game: str, bad: str, good: str) -> MatchOutcome:
    before = descendants()
    out = run_match(game, [bad] + [good] * (seats_for(game) - 1), seed=5, time=FAST, limits=LIMITS)
    assert out.status == "finished", out.error
    assert descendants() - before == set(), "bot processes left behind"
    assert verify_replay(out.replay) == []
    assert all(s.status == "ok" and s.faults == [] for s in out.seats[1:])
    return out


@pytest.mark.parametrize(
    "answer",
    [
        """"[" * DEEP + "]" * DEEP""",
        """'{"type":"act","action":' + "[" * DEEP + "]" * DEEP + '}'""",
        """'{"action_index":0,"turn":%d,"x":' % msg["turn"] + '{"a":' * DEEP + "1" + "}" * DEEP"""
        """ + '}'""",
        """"[" * DEEP""",  # never closed: the decoder would recurse before it found out
    ],
    ids=["array", "action", "object-in-an-answer", "unclosed"],
)
def test_deeply_nested_answers_are_the_bots_fault(small_game, make_bot, answer):
    deep = make_bot(
        "deep",
        f"""
        DEEP = {DEEP}
        def on_act(msg):
            sys.stdout.write({answer} + "\\n"); sys.stdout.flush()
        """,
    )
    out = play(small_game, deep, make_bot("good"))
    faults = out.seats[0].faults
    assert [f["kind"] for f in faults] == [p.INVALID_JSON] * 3  # then retired (fault limit)
    assert out.seats[0].status == "retired"
    assert f"nested deeper than {p.MAX_DEPTH} levels" in faults[0]["detail"]
    assert len(faults[0]["detail"]) < 400  # the line itself is cut, never stored whole


def test_deeply_nested_ready_is_the_bots_fault(small_game, make_bot):
    deep = make_bot(
        "deep_ready",
        f"""
        def on_start(msg):
            sys.stdout.write('{{"type":"ready","name":' + "[" * {DEEP} + "]" * {DEEP} + "}}\\n")
            sys.stdout.flush()
        """,
    )
    out = play(small_game, deep, make_bot("good"))
    assert [f["kind"] for f in out.seats[0].faults] == [p.NO_READY]
    assert "nested deeper" in out.seats[0].faults[0]["detail"]


def test_text_a_database_refuses_is_made_storable(small_game, make_bot):
    # NUL on stderr and in a log, a lone surrogate as a JSON escape in the log and the name:
    # PostgreSQL refuses NUL in text and jsonb, and a lone surrogate is no UTF-8.
    odd = make_bot(
        "odd",
        r"""
        def on_start(msg):
            sys.stdout.write('{"type":"ready","name":"a\\ud800b\\u0000"}\n'); sys.stdout.flush()

        def on_act(msg):
            sys.stderr.write("nul\x00here\n"); sys.stderr.flush()
            sys.stdout.write('{"action_index":0,"turn":%d,"log":"x\\ud800\\u0000y"}\n'
                             % msg["turn"])
            sys.stdout.flush()
        """,
    )
    out = play(small_game, odd, make_bot("good"))
    assert out.seats[0].status == "ok"
    assert out.seats[0].name == "a\ufffdb\ufffd"
    logs = [d["log"] for d in out.replay["decisions"] if d["seat"] == 0 and "log" in d]
    assert logs and set(logs) == {"x\ufffd\ufffdy"}
    assert "nul\ufffdhere" in out.replay["logs"][0] and "\x00" not in out.replay["logs"][0]
