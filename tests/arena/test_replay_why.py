"""``arena replay why FILE --at STEP --seat N``: the act message a program bot was sent (the
bot logs what it read: the two must be equal), its answer, time, fault with the reason, and
its log lines for that decision; refusals are one line and exit 2."""

from __future__ import annotations

import json

import pytest
from resume_helpers import cli, first_decision, picker, record

from arena.replay import save_replay


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict]:
    """Seat 0 logs every act line it reads and answers its 3rd act with a line not JSON."""
    folder = tmp_path_factory.mktemp("why")
    return record(
        folder, [picker(folder, "logger", fault_on=(3,)), "builtin:greedy", "builtin:random"], 11
    )


def why(capsys, file: str, step: int, seat: int, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "replay", "why", file, "--at", str(step), "--seat", str(seat), *extra)


def test_what_a_program_was_told_is_the_act_line_it_read(capsys, logged):
    file, doc = logged
    step = first_decision(doc, seat=0, at_least=50)
    code, out, _ = why(capsys, file, step, 0, "--json")
    assert code == 0
    found = json.loads(out)
    lines = found["logs"].splitlines()
    assert lines == [lines[0], f"turn {step} thinking"]  # this decision's lines, no other's
    assert found["act"] == json.loads(lines[0].removeprefix("ACT "))
    decision = doc["decisions"][step]
    assert found["answer"]["index"] == decision["index"]
    assert found["answer"]["action"] == decision["action"]
    assert found["answer"]["ms"] == decision["ms"] and found["faults"] == []
    assert found["kind"] == "program" and found["asked"] is True

    code, text, _ = why(capsys, file, step, 0)
    assert code == 0
    assert f"decision {step} of {file}" in text
    assert f"time_left_ms {found['act']['time_left_ms']}" in text
    assert f"  | turn {step} thinking" in text
    chosen = decision["index"]
    assert any(line.lstrip().startswith(f"> {chosen:>3}") for line in text.splitlines())


def test_a_fault_with_its_reason(capsys, logged):
    file, doc = logged
    step = [d["turn"] for d in doc["decisions"] if d["seat"] == 0][2]  # its 3rd act
    code, out, _ = why(capsys, file, step, 0, "--json")
    assert code == 0
    found = json.loads(out)
    assert found["answer"]["default"] is True and found["answer"]["fault"] == "invalid_json"
    [fault] = found["faults"]
    recorded = doc["seats"][0]["faults"][0]
    assert recorded["turn"] == step
    assert fault == {"kind": "invalid_json", "detail": recorded["detail"]}
    code, text, _ = why(capsys, file, step, 0)
    assert f"fault: invalid_json: {fault['detail']}" in text
    assert "played for it (default): index 0" in text


def test_a_builtin_seat_and_a_replay_without_logs(capsys, logged, tmp_path):
    file, doc = logged
    step = first_decision(doc, seat=1, at_least=10)
    code, out, _ = why(capsys, file, step, 1, "--json")
    found = json.loads(out)
    assert code == 0 and found["kind"] == "built-in" and found["act"]["time_left_ms"] is None
    assert found["logs"] == ""
    old = {k: v for k, v in doc.items() if k not in ("logs", "log_marks")}
    save_replay(old, tmp_path / "old.json")
    step = first_decision(doc, seat=0, at_least=10)
    code, text, _ = why(capsys, str(tmp_path / "old.json"), step, 0)
    assert code == 0 and "no logs in this replay" in text
    code, out, _ = why(capsys, str(tmp_path / "old.json"), step, 0, "--json")
    assert json.loads(out)["logs"] is None


def test_a_site_bot_without_logs_says_who_gets_them(capsys, logged, tmp_path):
    """A replay fetched from the site holds an uploaded bot's (``version:N``) logs for its
    owner only: a seat of it with no log says so, rather than that the bot wrote nothing."""
    _, doc = logged
    step = first_decision(doc, seat=0, at_least=10)
    seats = [dict(s) for s in doc["seats"]]
    seats[0]["bot"] = "version:7"
    hint = "a replay holds a bot's logs only for its owner, fetched logged in"
    variants = {
        "public": ({k: v for k, v in doc.items() if k not in ("logs", "log_marks")}, True),
        "withheld": ({**doc, "logs": ["", *doc["logs"][1:]], "log_marks": [[], [], []]}, True),
        "own": (doc, False),
    }
    for name, (variant, hinted) in variants.items():
        path = tmp_path / f"{name}.json"
        save_replay({**variant, "seats": seats}, path)
        code, text, _ = why(capsys, str(path), step, 0)
        assert code == 0 and (hint in text) is hinted, name
    # a built-in seat's empty log is no withheld one
    step = first_decision(doc, seat=1, at_least=10)
    code, text, _ = why(capsys, str(tmp_path / "withheld.json"), step, 1)
    assert "no log lines at this decision\n" in text and hint not in text


def test_refusals(capsys, logged):
    file, doc = logged
    other = first_decision(doc, seat=1, at_least=10)
    before = max(d["turn"] for d in doc["decisions"][:other] if d["seat"] == 0)
    after = first_decision(doc, seat=0, at_least=other)
    for argv, says in [
        ((other, 0), f"decision {other} was seat 1's, not seat 0's"),
        ((other, 0), f"seat 0's nearest decisions: {before} (before), {after} (after)"),
        ((len(doc["decisions"]), 0), "is not a decision of this replay"),
        ((1, 9), "seat 9 is not a seat of this replay"),
    ]:
        code, _, err = why(capsys, file, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1
        assert err.startswith("arena: error: ") and says in err


def test_a_retired_seat_was_told_nothing(capsys, tmp_path):
    bot = picker(tmp_path, "quitter", fault_on=(1, 2))
    file, doc = record(
        tmp_path, [bot, "builtin:greedy", "builtin:random"], 12, "--fault-limit", "2"
    )
    capsys.readouterr()  # the recording's own output
    retired = doc["seats"][0]["retired_turn"]
    after = first_decision(doc, seat=0, at_least=retired + 1)
    code, out, _ = why(capsys, file, after, 0, "--json")
    found = json.loads(out)
    assert code == 0 and found["asked"] is False and found["act"] is None
    assert found["answer"]["default"] is True and found["answer"]["index"] == 0
    code, out, _ = why(capsys, file, retired, 0, "--json")  # the decision that retired it
    assert json.loads(out)["asked"] is True
    assert json.loads(out)["faults"][0]["kind"] == "invalid_json"
    code, text, _ = why(capsys, file, after, 0)
    assert "told nothing: the seat was retired" in text


def test_help(capsys):
    from arena.cli import main

    for argv in (["replay", "why", "--help"], ["play", "--help"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--at STEP" in out and "--from-replay FILE" in out and "--others SPEC" in out
