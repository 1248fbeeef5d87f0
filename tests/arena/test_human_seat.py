"""The human seat: a person asked through an injected channel under a clock of its own, and
`arena play GAME human ...` on a terminal, driven here through stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.botspec import BotSpecError
from arena.human_seat import HumanEnd, HumanGone, HumanRequest, HumanTime, action_label
from arena.pictures import render_text
from arena.referee import run_match
from arena.replay import load_replay, verify_replay
from games import registry

ROOT = Path(__file__).resolve().parents[2]


class Scripted:
    """A channel that answers from a function of the request, and records what it saw."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.requests: list[HumanRequest] = []
        self.finished: list[tuple[int, dict[str, Any]]] = []
        self.ends: list[HumanEnd] = []

    def ask(self, request: HumanRequest) -> int | None:
        self.requests.append(request)
        return self.answer(request)

    def finish(self, end: HumanEnd) -> None:
        self.finished.append((end.seat, end.result))
        self.ends.append(end)


def _last(request: HumanRequest) -> int:
    return len(request.legal) - 1


@pytest.mark.parametrize("slug", registry.slugs())
def test_human_seat_plays_a_whole_match_recorded_like_any_seat(slug: str) -> None:
    g = registry.get_game(slug)
    players = max(2, g.min_players)
    bots = ["human", *["builtin:random"] * (players - 1)]
    options = {"max_rounds": 1} if slug == "trnd" else {}
    channel = Scripted(_last)
    outcome = run_match(slug, bots, seed=5, options=options, human=channel)
    assert outcome.ok and outcome.seats[0].status == "ok"
    replay = outcome.replay
    assert verify_replay(replay) == []
    assert replay["seats"][0]["human"] is True and replay["human_time"] == {"move_ms": 300_000}
    mine = [d for d in replay["decisions"] if d["seat"] == 0]
    assert len(mine) == len(channel.requests) > 0
    # the seat's choices are the channel's, and it saw exactly the seat's observation
    state = g.new_game(players, 5, options)
    asked = iter(channel.requests)
    for d in replay["decisions"]:
        if d["seat"] == 0:
            r = next(asked)
            assert r.observation == state.observation(0) and r.legal == state.legal_actions()
            assert d["index"] == len(r.legal) - 1
            assert r.labels == [action_label(a) for a in r.legal]
            # the picture's state shows the seat what it may know, nothing more
            assert g.state_from_json(r.view).observation(0) == r.observation
            assert render_text(slug, r.view)
        state.apply(d["action"])
    assert channel.finished == [(0, outcome.result)]
    # the end is told with the last position as the seat knows it: the page draws it
    end = channel.ends[0]
    assert end.game == slug and end.view is not None
    last = g.state_from_json(end.view)
    assert last.is_over() and last.observation(0) == state.observation(0)


def test_the_picture_does_not_leak_hidden_cards() -> None:
    channel = Scripted(lambda r: 0)
    run_match(
        "trnd",
        ["human", "builtin:random", "builtin:random"],
        seed=2,
        options={"max_rounds": 1},
        human=channel,
    )
    real = registry.get_game("trnd").new_game(3, 2, {"max_rounds": 1})
    view = channel.requests[0].view
    assert view is not None
    hands = real.to_json()["hands"]
    assert view["hands"][0] == hands[0]  # own hand: exact
    assert view["hands"][1:] != hands[1:]  # others': redrawn


def test_no_answer_in_time_forfeits_like_a_timeout() -> None:
    outcome = run_match(
        "trnd",
        ["builtin:random", "human", "builtin:random"],
        seed=3,
        options={"max_rounds": 1},
        human=Scripted(lambda r: None),
        human_time=HumanTime(move_ms=60_000),
    )
    seat = outcome.seats[1]
    assert seat.status == "timeout" and seat.rank == 3
    assert "60000 ms" in seat.faults[0]["detail"]
    assert verify_replay(outcome.replay) == []


def test_a_player_who_leaves_forfeits() -> None:
    def leave(r: HumanRequest) -> int:
        if r.turn > 10:
            raise HumanGone("the page was closed")
        return 0

    outcome = run_match("tri-area", ["human", "builtin:builder"], seed=1, human=Scripted(leave))
    assert outcome.seats[0].status == "timeout"
    assert outcome.seats[0].faults[0]["detail"] == "the page was closed"
    assert verify_replay(outcome.replay) == []


def test_a_channel_that_returns_nonsense_is_a_system_error_not_a_default() -> None:
    outcome = run_match(
        "tri-area", ["human", "builtin:random"], seed=1, human=Scripted(lambda r: 99)
    )
    assert outcome.status == "error" and "human channel returned 99" in (outcome.error or "")


def test_human_without_a_channel_is_refused_before_anything_starts() -> None:
    with pytest.raises(BotSpecError, match="human channel"):
        run_match("tri-area", ["human", "builtin:random"], seed=1)
    with pytest.raises(ValueError, match="positive"):
        HumanTime(move_ms=0)


def test_action_labels_are_readable() -> None:
    assert action_label({"type": "take", "slot": 3}) == "take: slot 3"
    assert action_label({"type": "place_at", "x": -3, "y": 0, "rot": 1}) == (
        "place at: x -3, y 0, rot 1"
    )
    assert action_label({"type": "taxi_to", "to": [1, 2]}) == "taxi to: to (1, 2)"
    assert action_label({"type": "draw"}) == "draw"
    assert action_label(7) == "7"


# -- the terminal: `arena play` in a subprocess, driven through stdin ------------------------


def _arena(*argv: str, stdin: str | None = None, **kw: Any) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arena", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        **kw,
    )


def test_terminal_play_trnd_against_two_builtins(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    # a typo and an out-of-range number first: both are asked again, not faults
    answers = "x\n42\n" + "1\n" * 300
    done = _arena(
        "play",
        "trnd",
        "human",
        "builtin:greedy",
        "builtin:random",
        "--seed",
        "7",
        "-o",
        "max_rounds=1",
        "--replay",
        str(replay),
        stdin=answers,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "you are seat 0" in out and "legal actions:" in out and "[1] take: slot 0" in out
    assert "your observation:" in out and "hand:" in out
    assert "type a number from 0 to" in out
    assert "TRND  round 1/1" in out  # the game's text picture
    doc = load_replay(replay)
    assert doc["seats"][0]["human"] is True and doc["seats"][0]["status"] == "ok"
    assert all(d["index"] == 1 for d in doc["decisions"] if d["seat"] == 0)
    verified = _arena("replay", "verify", str(replay))
    assert verified.returncode == 0, verified.stderr


def test_terminal_play_solo_trishaw_frenzy(tmp_path: Path) -> None:
    replay = tmp_path / "solo.json"
    done = _arena(
        "play",
        "trishaw-frenzy",
        "human",
        "--seed",
        "2",
        "--replay",
        str(replay),
        "--json",
        stdin="0\n" * 400,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["status"] == "finished" and summary["seats"][0]["status"] == "ok"
    assert _arena("replay", "verify", str(replay)).returncode == 0


def test_terminal_resign_and_end_of_input_forfeit(tmp_path: Path) -> None:
    for answers, why in (("0\nq\n", "resigned"), ("0\n0\n", "end of input")):
        replay = tmp_path / "r.json"
        done = _arena(
            "play",
            "tri-area",
            "human",
            "builtin:builder",
            "--seed",
            "4",
            "--replay",
            str(replay),
            stdin=answers,
        )
        assert done.returncode == 0, done.stderr
        doc = load_replay(replay)
        seat = doc["seats"][0]
        assert seat["status"] == "timeout" and why in seat["faults"][0]["detail"]
        assert verify_replay(doc) == []


def test_terminal_clock_runs_out(tmp_path: Path) -> None:
    replay = tmp_path / "t.json"
    out_file, err_file = tmp_path / "out.txt", tmp_path / "err.txt"
    # stdin stays open and silent: only the human clock can end the wait
    with out_file.open("w") as out, err_file.open("w") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "arena",
                "play",
                "tri-area",
                "human",
                "builtin:random",
                "--human-move-ms",
                "400",
                "--replay",
                str(replay),
            ],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=err,
            cwd=ROOT,
        )
        try:
            assert proc.wait(timeout=60) == 0, err_file.read_text()
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
    assert "time is up" in out_file.read_text()
    seat = load_replay(replay)["seats"][0]
    assert seat["status"] == "timeout" and "400 ms" in seat["faults"][0]["detail"]
    assert seat["time_ms"] >= 400
