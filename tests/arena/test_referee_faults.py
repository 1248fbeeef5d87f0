"""Each fault class, committed by a tiny bot in seat 0 against well-behaved bots: the fault is
recorded with the right kind and status, the other seats finish, no process is left behind,
and the replay still verifies."""

from __future__ import annotations

import re
from typing import Any

import pytest
from referee_helpers import descendants, seats_for

from arena.outcome import MatchOutcome
from arena.referee import TimeControl, run_match
from arena.replay import verify_replay
from sandbox.base import Limits

# Generous enough that a well-behaved bot never times out on a loaded CI machine; only the
# timeout tests wait for these limits to run out.
FAST = TimeControl(start_ms=5000, move_ms=200, bank_ms=1000)
LIMITS = Limits(max_line_bytes=4096, cpu_seconds=30)


def play(game: str, bad: str, good: str, **kw: Any) -> MatchOutcome:
    bots = [bad] + [good] * (seats_for(game) - 1)
    kw.setdefault("time", FAST)
    kw.setdefault("limits", LIMITS)
    before = descendants()
    out = run_match(game, bots, seed=11, **kw)
    assert out.status == "finished", out.error
    assert descendants() - before == set(), "bot processes left behind"
    assert verify_replay(out.replay) == []
    for other in out.seats[1:]:
        assert other.status == "ok" and other.faults == []
    # retired seats rank below every seat still playing
    if out.seats[0].retired_turn is not None:
        assert out.seats[0].rank > max(s.rank for s in out.seats[1:])
    return out


def kinds(out: MatchOutcome, seat: int = 0) -> list[str]:
    return [f["kind"] for f in out.seats[seat].faults]


def test_good_bots_have_no_faults(small_game, make_bot):
    good = make_bot("good")
    out = play(small_game, good, good)
    assert all(s.status == "ok" and s.name == "test-bot" for s in out.seats)
    assert out.replay["decisions"], "a match of at least one decision"
    assert all(d["index"] == 0 and "fault" not in d for d in out.replay["decisions"])


def test_timeout_retires_the_seat(small_game, make_bot):
    slow = make_bot(
        "slow",
        """
        def on_act(msg):
            if acts >= 2:
                time.sleep(30)
            say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, slow, make_bot("good"))
    assert out.seats[0].status == "timeout"
    assert kinds(out) == ["timeout"]
    fault = out.seats[0].faults[0]
    decision = out.replay["decisions"][fault["turn"]]
    assert decision["seat"] == 0 and decision["fault"] == "timeout" and decision["default"]
    assert decision["ms"] >= FAST.move_ms  # the time taken is in the replay, to check disputes


def test_time_bank_absorbs_slow_moves(small_game, make_bot):
    # 1 s per decision against a 50 ms move limit: the bank (3 s) pays until it runs out. Each
    # answer draws at least 950 ms, so at most 3 are paid; at least 2 are, as long as the
    # machine adds under half a second to each (a busy one makes answers slower, never faster).
    sleepy = make_bot(
        "sleepy",
        """
        def on_act(msg):
            time.sleep(1.0)
            say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    tc = TimeControl(start_ms=60_000, move_ms=50, bank_ms=3000)
    drawn_ms = 1000 - tc.move_ms  # the least each answer takes from the bank
    out = play(small_game, sleepy, make_bot("good"), time=tc)
    seat0 = [d for d in out.replay["decisions"] if d["seat"] == 0]
    answered = [d for d in seat0 if "fault" not in d and "default" not in d]
    assert 2 <= len(answered) <= tc.bank_ms // drawn_ms
    assert out.seats[0].status == "timeout"
    # The decision that timed out was offered move_ms plus what was left of the bank, no more.
    detail = out.seats[0].faults[0]["detail"]
    offered = int(re.search(r"time_left_ms=(\d+)", detail).group(1))
    left = max(0, tc.bank_ms - drawn_ms * len(answered))
    assert tc.move_ms <= offered <= tc.move_ms + left, detail


def test_crash_at_start(small_game, make_bot):
    dead = make_bot(
        "dead",
        """
        sys.stderr.write("boom at start\\n")
        sys.exit(3)
    """,
    )
    out = play(small_game, dead, make_bot("good"))
    assert out.seats[0].status == "crashed"
    assert kinds(out) == ["crash"]
    assert out.seats[0].faults[0]["turn"] is None
    assert "exited 3" in out.seats[0].faults[0]["detail"]
    assert out.seats[0].retired_turn == 0
    assert "boom at start" in out.replay["logs"][0]


def test_crash_mid_game(small_game, make_bot):
    dies = make_bot(
        "dies",
        """
        def on_act(msg):
            if acts == 2:
                raise SystemExit(5)
            say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, dies, make_bot("good"))
    assert out.seats[0].status == "crashed"
    assert kinds(out) == ["crash"]
    turn = out.seats[0].faults[0]["turn"]
    assert isinstance(turn, int) and turn > 0
    later = [d for d in out.replay["decisions"] if d["seat"] == 0 and d["turn"] >= turn]
    assert later and all(d["index"] == 0 and d["default"] for d in later)


def test_invalid_json_counts_towards_the_fault_limit(small_game, make_bot):
    garbage = make_bot(
        "garbage",
        """
        def on_act(msg):
            sys.stdout.write("this is not json\\n"); sys.stdout.flush()
    """,
    )
    out = play(small_game, garbage, make_bot("good"), fault_limit=3)
    assert kinds(out) == ["invalid_json"] * 3
    assert out.seats[0].status == "retired"
    assert out.seats[0].retired_turn == out.seats[0].faults[-1]["turn"]


def test_one_invalid_answer_is_illegal_not_retired(small_game, make_bot):
    once = make_bot(
        "once",
        """
        def on_act(msg):
            if acts == 1:
                sys.stdout.write("{broken\\n"); sys.stdout.flush()
            else:
                say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, once, make_bot("good"))
    assert kinds(out) == ["invalid_json"]
    assert out.seats[0].status == "illegal"
    assert out.seats[0].retired_turn is None


def test_action_not_in_the_list(small_game, make_bot):
    cheat = make_bot(
        "cheat",
        """
        def on_act(msg):
            if acts == 1:
                say({"action": {"type": "win-the-game"}, "turn": msg["turn"]})
            else:
                say({"action": msg["legal_actions"][-1], "turn": msg["turn"]})
    """,
    )
    out = play(small_game, cheat, make_bot("good"))
    assert kinds(out) == ["illegal_action"]
    assert out.seats[0].status == "illegal"
    # the other answers named a legal action by value, and it was played
    answered = [d for d in out.replay["decisions"] if d["seat"] == 0 and "fault" not in d]
    assert answered and all("default" not in d for d in answered)


def test_index_out_of_range(small_game, make_bot):
    far = make_bot(
        "far",
        """
        def on_act(msg):
            index = len(msg["legal_actions"]) if acts <= 2 else 0
            say({"action_index": index, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, far, make_bot("good"))
    assert kinds(out) == ["index_out_of_range"] * 2
    assert out.seats[0].status == "illegal"


def test_output_over_the_line_cap(small_game, make_bot):
    loud = make_bot(
        "loud",
        """
        def on_act(msg):
            if acts == 1:
                sys.stdout.write("x" * 10000 + "\\n"); sys.stdout.flush()
            else:
                say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, loud, make_bot("good"))
    assert kinds(out) == ["line_too_long"]
    assert out.seats[0].status == "illegal"


def test_no_ready(small_game, make_bot):
    rude = make_bot(
        "rude",
        """
        def on_start(msg):
            say({"type": "hello"})
    """,
    )
    out = play(small_game, rude, make_bot("good"))
    assert kinds(out) == ["no_ready"]
    assert out.seats[0].status == "retired"
    assert out.seats[0].retired_turn == 0
    assert all(d["default"] for d in out.replay["decisions"] if d["seat"] == 0)


def test_silent_at_start_is_a_timeout(small_game, make_bot):
    mute = make_bot(
        "mute",
        """
        def on_start(msg):
            pass
    """,
    )
    out = play(small_game, mute, make_bot("good"), time=TimeControl(start_ms=1000, move_ms=200))
    assert kinds(out) == ["timeout"]
    assert out.seats[0].status == "timeout"


def test_unsolicited_lines_are_faults_never_answers(small_game, make_bot):
    # Two answers in one write, the second dressed as the answer to the next decision. (A
    # second line written later, after the next act went out, cannot be told from an answer:
    # the referee can only catch what has arrived before it sends the next act.)
    chatty = make_bot(
        "chatty",
        """
        def on_act(msg):
            first = json.dumps({"action_index": 0, "turn": msg["turn"]})
            extra = json.dumps({"action_index": 0, "turn": msg["turn"] + 1})
            sys.stdout.write(first + "\\n" + (extra + "\\n" if acts == 1 else ""))
            sys.stdout.flush()
    """,
    )
    out = play(small_game, chatty, make_bot("good"))
    assert kinds(out) == ["unsolicited"]
    assert out.seats[0].status == "illegal"


def test_stale_answers_are_discarded_without_fault(small_game, make_bot):
    echo_old = make_bot(
        "echo_old",
        """
        def on_act(msg):
            say({"action_index": 0, "turn": msg["turn"] - 1})
            say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, echo_old, make_bot("good"))
    assert out.seats[0].status == "ok"
    mine = [d for d in out.replay["decisions"] if d["seat"] == 0]
    assert all(d["stale"] == 1 for d in mine)


def test_logs_are_kept_and_capped(small_game, make_bot):
    talker = make_bot(
        "talker",
        """
        def on_act(msg):
            say({"action_index": 0, "turn": msg["turn"], "log": "thinking " * 300})
    """,
    )
    out = play(small_game, talker, make_bot("good"))
    logs = [d.get("log") for d in out.replay["decisions"] if d["seat"] == 0]
    kept = [log for log in logs if log is not None]
    assert kept and all(log.startswith("thinking") and len(log) <= 2000 for log in kept)
    # a budget per seat and match: the replay's size is not the bot's choice
    assert sum(map(len, kept)) <= 64 * 1024
    if len(logs) * 2000 > 64 * 1024:
        assert logs[-1] is None


@pytest.mark.parametrize("limit", [1, 2])
def test_fault_limit_is_configurable(small_game, make_bot, limit):
    garbage = make_bot(
        "garbage",
        """
        def on_act(msg):
            say({"action_index": -1, "turn": msg["turn"]})
    """,
    )
    out = play(small_game, garbage, make_bot("good"), fault_limit=limit)
    assert len(out.seats[0].faults) == limit
    assert out.seats[0].status == "retired"
