"""The `arena` command line, through main(argv) (fast) and once through a real subprocess
(the console entry point, python -m arena, and a SIGTERM in the middle of a match)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from referee_helpers import descendants, seats_for

from arena.cli import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_INTERRUPTED, EXIT_OK, main
from games import registry

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["games"],
        ["play"],
        ["tournament"],
        ["replay"],
        ["replay", "verify"],
        ["new-bot"],
    ],
)
def test_help_on_every_command(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    assert exc.value.code == 0
    assert "usage: arena" in capsys.readouterr().out


def test_options_may_come_between_a_commands_positionals():
    """`arena play trnd --seed 3 a.py b.py`: argparse alone ends the BOT list at the option and
    calls a.py and b.py unrecognized."""
    from arena.cli import build_parser

    args = build_parser().parse_args(["play", "trnd", "--seed", "3", "a.py", "--json", "b.py"])
    assert (args.game, args.bots, args.seed, args.json) == ("trnd", ["a.py", "b.py"], 3, True)
    args = build_parser().parse_args(["replay", "why", "--at", "4", "m.json", "--seat", "2"])
    assert (args.file, args.at, args.seat) == ("m.json", 4, 2)


def test_games_lists_every_registered_game(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == EXIT_OK
    rows = {r["slug"]: r for r in json.loads(out)}
    assert set(rows) == set(registry.slugs())
    code, out, _ = run(capsys, "games")
    assert code == EXIT_OK and all(slug in out for slug in registry.slugs())


def test_play_json_for_scripts(capsys, small_game, make_bot, tmp_path):
    n = seats_for(small_game)
    bots = [make_bot("good")] + ["builtin:random"] * (n - 1)
    replay = tmp_path / "m.json"
    code, out, _ = run(
        capsys,
        "play",
        small_game,
        *bots,
        "--seed",
        "7",
        "--json",
        "--move-ms",
        "500",
        "--replay",
        str(replay),
    )
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["game"] == small_game and doc["seed"] == 7 and doc["status"] == "finished"
    assert [s["bot"] for s in doc["seats"]] == bots
    for s in doc["seats"]:
        assert s.keys() >= {"bot", "score", "rank", "status", "faults"}
    assert sorted(s["rank"] for s in doc["seats"])[0] == 1
    code, out, _ = run(capsys, "replay", "verify", str(replay))
    assert code == EXIT_OK and "ok" in out


def test_play_table_says_which_faults_and_why(capsys, small_game, make_bot):
    garbage = make_bot(
        "garbage",
        """
        def on_act(msg):
            sys.stdout.write("not json\\n"); sys.stdout.flush()
    """,
    )
    bots = [garbage] + ["builtin:random"] * (seats_for(small_game) - 1)
    code, out, _ = run(capsys, "play", small_game, *bots, "--move-ms", "300")
    assert code == EXIT_OK
    assert "invalid_json at turn" in out and "not one JSON object" in out
    assert "retired" in out


def test_replay_verify_fails_on_a_tampered_file(capsys, small_game, tmp_path):
    path = tmp_path / "r.json"
    bots = ["builtin:random"] * seats_for(small_game)
    assert main(["play", small_game, *bots, "--replay", str(path), "--json"]) == EXIT_OK
    doc = json.loads(path.read_text())
    doc["result"]["scores"][0] += 1
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    code, _, err = run(capsys, "replay", "verify", str(path))
    assert code == EXIT_CHECK_FAILED and "scores" in err
    code, out, _ = run(capsys, "replay", "verify", str(path), "--json")
    assert code == EXIT_CHECK_FAILED and json.loads(out)["ok"] is False


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "no-such-game", "builtin:random"], "unknown game"),
        (["play", "{game}", "/no/such/bot.py"], "no such file"),
        (["play", "{game}", "builtin:nobody"], "no built-in bot"),
        (["play", "{game}", "builtin:random", "--seed", "x"], "invalid int"),
        (["play", "{game}", "builtin:random", "--option", "oops"], "NAME=VALUE"),
        (["play", "{game}", "builtin:random", "--option", "no_such=1"], "unknown option"),
        (["play", "{game}", "builtin:random", "--move-ms", "-5"], "move_ms"),
        (["play", "{game}", "builtin:random", "--sandbox", "vm"], "invalid choice"),
        (["tournament", "{game}", "builtin:random", "--players", "9"], "players"),
        (["tournament", "{game}", "builtin:random", "--games", "0"], "at least 1"),
        (["tournament", "{game}", "builtin:random", "--jobs", "0"], "jobs"),
        (["replay", "verify", "/no/such/file.json"], "cannot read"),
        (["play"], "play wants GAME and one BOT per seat"),
        (["play", "{game}"], "play wants GAME and one BOT per seat"),
        (["play", "--from-replay", "m.json", "--at", "3", "--seat", "1"], "wants the BOT"),
        (["new-bot", "no-such-game", "/tmp/x"], "unknown game"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, small_game, argv, needle):
    argv = [a.replace("{game}", small_game) for a in argv]
    code, _, err = run(capsys, *argv)
    assert code == EXIT_BAD_INPUT
    assert err.startswith("arena: error: ") and err.count("\n") == 1, err
    assert needle in err
    assert "Traceback" not in err


def test_new_bot_plays_legally_in_every_game(capsys, games_now, tmp_path):
    for slug in games_now:
        folder = tmp_path / slug
        code, out, _ = run(capsys, "new-bot", slug, str(folder))
        assert code == EXIT_OK
        readme = (folder / "README.md").read_text()
        assert f"arena play {slug} ." in readme and '"type": "act"' in readme
        main_py = (folder / "main.py").read_text()
        imports = {line.split()[1] for line in main_py.splitlines() if line.startswith("import ")}
        assert imports <= set(sys.stdlib_module_names)
        bots = [str(folder)] + ["builtin:random"] * (seats_for(slug) - 1)
        code, out, _ = run(capsys, "play", slug, *bots, "--json", "--move-ms", "500")
        assert code == EXIT_OK
        seat = json.loads(out)["seats"][0]
        assert seat["status"] == "ok" and seat["name"] == "starter", seat
    code, _, err = run(capsys, "new-bot", games_now[0], str(tmp_path / games_now[0]))
    assert code == EXIT_BAD_INPUT and "--force" in err


def test_tournament_json_and_out_dir(capsys, small_game, tmp_path):
    players = seats_for(small_game)
    bots = [f"builtin:{b}" for b in registry.bots(small_game)] + ["builtin:random"]
    out_dir = tmp_path / "t"
    code, out, _ = run(
        capsys,
        "tournament",
        small_game,
        *bots,
        "--games",
        str(players),
        "--players",
        str(players),
        "--out",
        str(out_dir),
        "--json",
    )
    assert code == EXIT_OK
    doc = json.loads(out)
    names = {r["bot"] for r in doc["standings"]["rows"]}
    assert names == set(bots) | {"builtin:random#2"}
    replays = sorted((out_dir / "replays").glob("*.json"))
    assert len(replays) == len(doc["matches"])
    assert json.loads((out_dir / "standings.json").read_text())["standings"] == doc["standings"]
    assert main(["replay", "verify", str(replays[0])]) == EXIT_OK


def _env() -> dict[str, str]:
    env = dict(os.environ, ARENA_SANDBOX="process", PYTHONPATH=str(ROOT))
    return env


@pytest.mark.parametrize("argv", [["games"], ["games", "--json"]])
def test_a_reader_that_closes_the_pipe_ends_the_command_quietly(argv):
    """`arena games | head -1`: a table (rich) or JSON (print) to a pipe closed before it is
    written ends with exit 0 and nothing on stderr, not 'arena: error: Broken pipe' or rich's
    exit 1 (a failed check, to arena)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command has imported anything, let alone written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == EXIT_OK
    assert err == ""


def test_python_dash_m_arena_runs(small_game):
    bots = ["builtin:random"] * seats_for(small_game)
    done = subprocess.run(
        [sys.executable, "-m", "arena", "play", small_game, *bots, "--json"],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert json.loads(done.stdout)["game"] == small_game
    done = subprocess.run(
        [sys.executable, "-m", "arena", "play", "nope", "x"],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == EXIT_BAD_INPUT
    assert done.stderr.strip().splitlines() == [
        f"arena: error: unknown game 'nope' (known: {', '.join(sorted(registry.slugs()))})"
    ]


def test_sigterm_mid_match_ends_every_bot(small_game, make_bot):
    slow = make_bot(
        "slow",
        """
        def on_act(msg):
            time.sleep(0.2)
            say({"action_index": 0, "turn": msg["turn"]})
    """,
    )
    bots = [slow] * seats_for(small_game)
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "play", small_game, *bots, "--move-ms", "5000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 30
        while len(descendants(proc.pid)) < 1 + len(bots) and time.monotonic() < deadline:
            time.sleep(0.05)  # wait until the bots run
        assert len(descendants(proc.pid)) >= len(bots), "the bots never started"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "interrupted" in err
    time.sleep(0.1)
    leftovers = [
        pid
        for pid in descendants(1)
        if _cmdline(pid).endswith("main.py")
        and Path(f"/proc/{pid}").exists()
        and _started_by(pid, proc.pid)
    ]
    assert leftovers == []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def _started_by(pid: int, ancestor: int) -> bool:
    return pid in descendants(ancestor)
