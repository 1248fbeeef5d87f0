"""Per-decision logs (issue 21, item 1): the referee attributes each seat's stderr to its
decisions (``log_marks``: ``[turn, start, end]`` into ``logs[seat]``). Real bot processes
through the process sandbox; ``test_decision_logs_docker.py`` plays the same bots in Docker."""

from __future__ import annotations

from typing import Any

from decision_log_bots import (
    CAP_BOT,
    CHATTY_BOT,
    CRASH_BOT,
    SLOW_BOT,
    SPLIT_BOT,
    cap_bytes,
    chatty_text,
    split_text,
)
from referee_helpers import seats_for

from arena.referee import TimeControl, run_match
from arena.replay import verify_replay
from sandbox.base import Limits

FAST = TimeControl(start_ms=5000, move_ms=2000, bank_ms=5000)
#: Always the process sandbox (even with ARENA_TEST_SANDBOX=docker): its separate stderr pipe
#: makes the attribution exact; the Docker paths have their own file.
SANDBOX = "process"


def play(game: str, bots: list[str], limits: Limits | None = None) -> dict[str, Any]:
    limits = limits or Limits(cpu_seconds=30)
    out = run_match(game, bots, seed=3, time=FAST, limits=limits, sandbox=SANDBOX)
    assert out.status == "finished", out.error
    assert verify_replay(out.replay) == []
    return out.replay


def turns_of(replay: dict[str, Any], seat: int) -> list[int]:
    return [d["turn"] for d in replay["decisions"] if d["seat"] == seat and "default" not in d]


def slices(replay: dict[str, Any], seat: int) -> dict[int, str]:
    text = replay["logs"][seat]
    return {turn: text[a:b] for turn, a, b in replay["log_marks"][seat]}


def check_marks_shape(replay: dict[str, Any]) -> None:
    """In order, non-overlapping, inside the text, one per decision of the seat."""
    for seat, marks in enumerate(replay["log_marks"]):
        seat_turns = {d["turn"] for d in replay["decisions"] if d["seat"] == seat}
        last = 0
        for turn, a, b in marks:
            assert turn in seat_turns
            assert last <= a < b <= len(replay["logs"][seat])
            last = b
        assert len({m[0] for m in marks}) == len(marks)


def stored(text: str) -> str:
    """As the replay keeps it: a NUL is U+FFFD (arena.protocol.printable)."""
    return text.replace("\x00", "\ufffd")


def others(game: str, make_bot) -> list[str]:
    return [make_bot("good")] * (seats_for(game) - 1)


def test_each_decision_gets_what_it_printed(small_game, make_bot):
    replay = play(small_game, [make_bot("chatty", CHATTY_BOT), *others(small_game, make_bot)])
    check_marks_shape(replay)
    text = replay["logs"][0]
    turns = turns_of(replay, 0)
    assert len(turns) >= 6, "too short a match to say anything"
    got = slices(replay, 0)
    # Start-up output (the template's pid line, then on_start's) belongs to the first decision.
    first, *rest = turns
    pid_line = text.split("\n", 1)[0] + "\n"
    assert pid_line.startswith("pid=")
    assert got.pop(first) == pid_line + "starting: Grüße ☃\n" + stored(chatty_text(first, 1))
    # Every later decision: exactly what it printed; a silent one has no mark.
    want = {t: stored(chatty_text(t, n)) for n, t in enumerate(rest, start=2)}
    assert got == {t: s for t, s in want.items() if s}
    assert "\ufffd" in got[rest[0]] and "\x00" not in text
    # What it wrote after its last decision is in the text only, past the last mark.
    assert text[replay["log_marks"][0][-1][2] :] == "bye 👋\n"
    # The other seats: their start-up line at their first decision, nothing after.
    for seat in range(1, len(replay["seats"])):
        assert slices(replay, seat) == {turns_of(replay, seat)[0]: replay["logs"][seat]}
        assert replay["logs"][seat].startswith("pid=")


def test_a_character_split_between_decisions_counts_where_it_ends(small_game, make_bot):
    # Half of a 4-byte character before the answer, the rest at the next decision.
    replay = play(small_game, [make_bot("split", SPLIT_BOT), *others(small_game, make_bot)])
    check_marks_shape(replay)
    got = slices(replay, 0)
    turns = turns_of(replay, 0)
    assert got[turns[0]].startswith("pid=") and got[turns[0]].endswith("a" + split_text(1))
    for n, turn in enumerate(turns[1:], start=2):
        assert got[turn] == split_text(n), (turn, got[turn])
    assert replay["logs"][0].endswith("😀bye\n") and "\ufffd" not in replay["logs"][0]


def test_text_past_the_cap_is_in_no_mark(small_game, make_bot):
    cap = 300  # 70 bytes a decision: the cap falls inside a 3-byte character
    replay = play(
        small_game,
        [make_bot("capped", CAP_BOT), *others(small_game, make_bot)],
        Limits(cpu_seconds=30, stderr_cap_bytes=cap),
    )
    check_marks_shape(replay)
    kept, note = replay["logs"][0].split("\n[stderr truncated: ", 1)
    assert note.endswith(" more bytes dropped]\n")
    marks = replay["log_marks"][0]
    assert marks[-1][2] == len(kept), "the kept text ends in the last mark; the note in none"
    turns = turns_of(replay, 0)
    printed = [cap_bytes(t) for t in turns]
    printed[0] = kept.split("\n", 1)[0].encode() + b"\n" + printed[0]  # the pid line
    got = slices(replay, 0)
    room = cap
    for turn, data in zip(turns, printed, strict=True):
        if room <= 0:
            assert turn not in got
            continue
        # The cap cuts a character: its kept bytes are one U+FFFD, as in the text.
        assert got[turn] == data[:room].decode("utf-8", errors="replace")
        room -= len(data)
    assert "\ufffd" in got[turns[len(marks) - 1]]


def test_a_crash_and_a_timeout_keep_what_their_decision_printed(small_game, make_bot):
    # Retiring closes the process at once: what it wrote is read first, and is that decision's.
    tc = TimeControl(start_ms=5000, move_ms=300, bank_ms=0)
    for behaviour, status in ((CRASH_BOT, "crashed"), (SLOW_BOT, "timeout")):
        bots = [make_bot(status, behaviour), *others(small_game, make_bot)]
        limits = Limits(cpu_seconds=30)
        out = run_match(small_game, bots, seed=3, time=tc, limits=limits, sandbox=SANDBOX)
        assert out.status == "finished" and out.seats[0].status == status, out.seats[0]
        check_marks_shape(out.replay)
        fault_turn = out.seats[0].faults[0]["turn"]
        got = slices(out.replay, 0)
        assert max(got) == fault_turn  # retired: no decision of its own after it
        assert got[fault_turn].startswith(f"deciding {fault_turn} ✓\n")
        if status == "crashed":
            assert "ZeroDivisionError" in got[fault_turn]
        else:
            assert got[fault_turn] == f"deciding {fault_turn} ✓\n"


def test_builtin_seats_have_no_marks_and_old_replays_verify(small_game, make_bot):
    from games import registry

    builtin = f"builtin:{next(iter(registry.bots(small_game)))}"
    replay = play(small_game, [make_bot("good")] + [builtin] * (seats_for(small_game) - 1))
    assert replay["log_marks"][1:] == [[] for _ in replay["seats"][1:]]
    assert len(replay["log_marks"]) == len(replay["logs"]) == len(replay["seats"])
    old = {k: v for k, v in replay.items() if k != "log_marks"}
    assert verify_replay(old) == []
