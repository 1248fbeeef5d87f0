"""``arena play --from-replay FILE --at STEP --seat N BOT``: the recorded position restored,
the same bot (or one replaying the record) gives the record again, a changed bot plays
differently from STEP on, and every bad input is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from resume_helpers import GAME, SANDBOX, cli, first_decision, picker, record, replayer

from arena.replay import load_replay, save_replay, verify_replay, without_timings
from arena.resume import resimulate


@pytest.fixture(scope="module")
def builtin_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict]:
    folder = tmp_path_factory.mktemp("builtin")
    return record(folder, ["builtin:greedy", "builtin:random", "builtin:random"], 4)


@pytest.fixture(scope="module")
def program_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict]:
    folder = tmp_path_factory.mktemp("program")
    return record(folder, [picker(folder, "recorded"), "builtin:greedy", "builtin:random"], 6)


def rerun(capsys, file: str, step: int, seat: int, bot: str, out: Path, *extra: str):
    code, stdout, err = cli(
        capsys,
        "play",
        "--from-replay",
        file,
        "--at",
        str(step),
        "--seat",
        str(seat),
        bot,
        "--sandbox",
        SANDBOX,
        "--replay",
        str(out),
        *extra,
    )
    assert code == 0, err
    return stdout, load_replay(out)


def same_match(a: dict, b: dict) -> None:
    for key in ("decisions", "result", "final_state"):
        assert without_timings(a[key]) == without_timings(b[key]), key
    for x, y in zip(a["seats"], b["seats"], strict=True):
        for key in ("score", "rank", "status", "faults", "retired_turn"):
            assert x[key] == y[key], key


def test_the_recorded_builtin_again_gives_the_record(capsys, builtin_record, tmp_path):
    """A seeded random bot takes seat 2 mid-game: it was shown seat 2's earlier decisions,
    so its random draws are where they were, and the match is the record's to the end."""
    file, doc = builtin_record
    step = first_decision(doc, seat=2, at_least=len(doc["decisions"]) // 3)
    out, new = rerun(capsys, file, step, 2, "builtin:random", tmp_path / "new.json", "--json")
    same_match(doc, new)
    assert new["decisions"][:step] == doc["decisions"][:step]  # ms included: the record's
    assert verify_replay(new) == []
    assert new["resumed_from"] == {
        "match_id": doc["match_id"],
        "step": step,
        "seat": 2,
        "file": file,
    }
    summary = json.loads(out)["from_replay"]
    assert summary["diverged_at"] is None and summary["seat_changed"] is None
    assert summary["result"] == summary["recorded_result"]


def test_a_bot_playing_the_recorded_actions_gives_the_record(capsys, program_record, tmp_path):
    file, doc = program_record
    step = first_decision(doc, seat=0, at_least=60)
    bot = replayer(tmp_path, doc, seat=0)
    out, new = rerun(capsys, file, step, 0, bot, tmp_path / "new.json")
    same_match(doc, new)
    assert verify_replay(new) == []
    # the new bot is asked from STEP on only, with the match's own turn numbers
    asked = [int(line.split()[1]) for line in new["logs"][0].splitlines()]
    mine = [d["turn"] for d in doc["decisions"] if d["seat"] == 0 and d["turn"] >= step]
    assert asked == mine
    assert "seat 0 chose as recorded at every decision" in out
    assert "the game followed the record to its end" in out


def test_a_changed_bot_plays_differently_from_step(capsys, program_record, tmp_path):
    file, doc = program_record
    # a decision of seat 0 with a choice: the changed bot's index differs there
    step = next(
        d["turn"]
        for d in doc["decisions"][40:]
        if d["seat"] == 0 and len(resimulate(doc, d["turn"]).legal_actions()) > 1
    )
    changed = picker(tmp_path, "changed", shift=1)
    out, new = rerun(capsys, file, step, 0, changed, tmp_path / "new.json")
    assert new["decisions"][:step] == doc["decisions"][:step]
    assert new["decisions"][step]["seat"] == 0
    assert new["decisions"][step]["action"] != doc["decisions"][step]["action"]
    assert verify_replay(new) == []
    assert f"seat 0 first chose differently at decision {step}" in out
    assert f"the game left the record at decision {step}" in out
    assert "recorded: scores" in out and "now: scores" in out
    # after the divergence the other seats are their recorded built-in bots
    assert [s["bot"] for s in new["seats"]] == [changed, "builtin:greedy", "builtin:random"]


def test_by_default_an_uploaded_seat_is_followed_by_the_games_own_builtin(program_record):
    from arena.cli.rerun import _bots

    _file, doc = program_record
    # seat 0 was a program: after a divergence the game's own built-in (not random) plays it
    assert _bots(doc, 2, "mine.py", []) == ["builtin:greedy", "builtin:greedy", "mine.py"]
    assert _bots(doc, 0, "mine.py", ["builtin:random"]) == [
        "mine.py",
        "builtin:random",
        "builtin:random",
    ]


def test_the_others_given_and_the_record_followed_until_it_diverges(
    capsys, program_record, tmp_path
):
    """Seat 1 is replaced; seat 0 (a program in the record) follows its recorded actions
    until the game diverges, then ``--others`` plays it: here the record's own bot."""
    file, doc = program_record
    step = first_decision(doc, seat=1, at_least=30)
    own = picker(tmp_path, "own")
    out, new = rerun(
        capsys,
        file,
        step,
        1,
        "builtin:random",
        tmp_path / "new.json",
        "--others",
        own,
        "--others",
        "builtin:random",
        "--json",
    )
    summary = json.loads(out)["from_replay"]
    diverged = summary["diverged_at"]
    assert diverged is not None and new["decisions"][:diverged] == doc["decisions"][:diverged]
    assert verify_replay(new) == []
    asked = {
        int(line.split()[1]) for line in new["logs"][0].splitlines() if line.startswith("turn")
    }
    assert asked and min(asked) > diverged  # the program was asked only after the divergence
    assert [s["bot"] for s in new["seats"]] == [own, "builtin:random", "builtin:random"]


def test_recorded_faults_and_retirement_carry_over(capsys, tmp_path):
    """Seat 1 faulted on its 2nd and 4th acts and was retired (fault limit 2): re-run from
    between the two faults, the record's second fault and the retirement come again."""
    faulty = picker(tmp_path, "faulty", fault_on=(2, 4))
    file, doc = record(
        tmp_path, ["builtin:greedy", faulty, "builtin:random"], 8, "--fault-limit", "2"
    )
    faults = doc["seats"][1]["faults"]
    assert [f["kind"] for f in faults] == ["invalid_json"] * 2
    assert doc["seats"][1]["status"] == "retired"
    step = first_decision(doc, seat=0, at_least=faults[0]["turn"] + 1)
    assert step < faults[1]["turn"]
    _, new = rerun(capsys, file, step, 0, "builtin:greedy", tmp_path / "new.json")
    same_match(doc, new)
    assert verify_replay(new) == []


def bad(capsys, *argv: str) -> str:
    code, _, err = cli(capsys, *argv)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--at", "100000", "--seat", "0", "builtin:random"], "step 100000 is not a decision"),
        (["--at", "-1", "--seat", "0", "builtin:random"], "step -1 is not a decision"),
        (["--at", "3", "--seat", "3", "builtin:random"], "seat 3 is not a seat"),
        (["tri-area", "builtin:random", "--at", "3", "--seat", "0"], "a match of trnd"),
        (["--at", "3", "builtin:random"], "wants --at STEP and --seat N"),
        (["--at", "3", "--seat", "0", "builtin:nope"], "no built-in bot 'nope'"),
        (["--at", "3", "--seat", "0", "--seed", "2", "builtin:random"], "record's seed"),
        (["trnd", "a", "b", "--at", "3", "--seat", "0"], "one BOT"),
        (
            ["--at", "3", "--seat", "0", *["--others", "builtin:random"] * 3, "builtin:random"],
            "--others: give one bot",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, builtin_record, argv, says):
    file, _ = builtin_record
    assert says in bad(capsys, "play", "--from-replay", file, *argv)


def test_a_replay_that_does_not_resimulate_to_step_is_refused(capsys, builtin_record, tmp_path):
    _, doc = builtin_record
    broken = json.loads(json.dumps(doc))
    broken["decisions"][5]["events"] = [{"type": "made-up"}]
    save_replay(broken, tmp_path / "broken.json")
    line = bad(
        capsys,
        "play",
        "--from-replay",
        str(tmp_path / "broken.json"),
        "--at",
        "20",
        "--seat",
        "0",
        "builtin:random",
    )
    assert "does not re-simulate up to step 20: decision 5" in line
    # before the damage, the record is good
    _, new = rerun(
        capsys, str(tmp_path / "broken.json"), 3, 0, "builtin:random", tmp_path / "n.json"
    )
    assert verify_replay(new) == []


def test_other_refusals(capsys, builtin_record, tmp_path):
    _, doc = builtin_record
    retired = json.loads(json.dumps(doc))
    retired["seats"][0]["retired_turn"] = 2
    save_replay(retired, tmp_path / "retired.json")
    line = bad(
        capsys,
        "play",
        "--from-replay",
        str(tmp_path / "retired.json"),
        "--at",
        "9",
        "--seat",
        "0",
        "builtin:random",
    )
    assert "seat 0 was retired at decision 2" in line
    (tmp_path / "not.json").write_text('{"hello": 1}')
    line = bad(
        capsys,
        "play",
        "--from-replay",
        str(tmp_path / "not.json"),
        "--at",
        "1",
        "--seat",
        "0",
        "builtin:random",
    )
    assert "not a replay" in line
    assert "--from-replay" in bad(capsys, "play", GAME, "builtin:random", "--at", "3")
