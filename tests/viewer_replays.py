"""A real replay with per-decision logs, for the replay viewer's tests (the offline file and the
site): a program bot that writes to stderr at every decision (multi-byte and non-BMP text, so
that the viewer's code-point offsets are exercised), answers one illegal action (a fault with
the referee's reason) and takes a long time over one decision (its slowest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.referee import TimeControl, run_match

#: The program's decisions, by its own count (1-based): the one it faults, the one it sleeps.
FAULT_AT, SLOW_AT = 2, 3
SLOW_S = 1.0  # far above any other decision of the bot, even on a loaded machine

LOGGING_BOT = f"""\
import json, sys, time
acts = 0
sys.stderr.write("warming up 🎲\\n"); sys.stderr.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({{"type": "ready", "name": "chatty"}}), flush=True)
    elif msg["type"] == "act":
        acts += 1
        sys.stderr.write("turn %d: thinking ☃ 🎲 about %d actions\\n"
                         % (msg["turn"], len(msg["legal_actions"])))
        sys.stderr.flush()
        if acts == {SLOW_AT}:
            time.sleep({SLOW_S})
        if acts == {FAULT_AT}:
            answer = {{"action": {{"type": "no-such-move"}}, "turn": msg["turn"]}}
        else:
            answer = {{"action_index": 0, "turn": msg["turn"]}}
        print(json.dumps(answer), flush=True)
    elif msg["type"] == "end":
        break
"""

TIME = TimeControl(start_ms=10_000, move_ms=5_000, bank_ms=20_000)


def write_bot(folder: Path) -> Path:
    path = folder / "chatty.py"
    path.write_text(LOGGING_BOT, encoding="utf-8")
    return path


def logged_replay(folder: Path, *, game: str = "tri-area", seed: int = 4) -> dict[str, Any]:
    """A finished tri-area match: seat 0 the logging program, seat 1 ``builtin:builder``."""
    bot = write_bot(folder)
    out = run_match(game, [str(bot), "builtin:builder"], seed=seed, time=TIME, sandbox="process")
    assert out.status == "finished", out.error
    replay = out.replay
    assert replay["seats"][0]["faults"][0]["kind"] == "illegal_action"
    assert replay["log_marks"][0], "the referee marked no decision of the logging bot"
    return replay


def log_lines(replay: dict[str, Any], seat: int, turn: int) -> str | None:
    """What seat ``seat`` wrote during decision ``turn`` (Python slicing: code points)."""
    for t, start, end in replay["log_marks"][seat]:
        if t == turn:
            text: str = replay["logs"][seat][start:end]
            return text
    return None


def decision_steps(replay: dict[str, Any], seat: int) -> list[int]:
    """The viewer's steps (``n``: the position after decision ``n - 1``) of ``seat``'s
    decisions, in order."""
    return [i + 1 for i, d in enumerate(replay["decisions"]) if d["seat"] == seat]


def played_on_site(owner: Any, game: Any) -> Any:
    """A finished site match of ``owner``'s bot "chatty" (the logging bot above) against the
    built-in builder, played in this process (the caller allows the process sandbox)."""
    from bots.services import create_bot, ensure_builtin_bots, upload_version
    from matches.models import MatchStatus
    from matches.services import create_match, dispatch_match

    mine = upload_version(
        bot=create_bot(owner=owner, game=game, name="chatty"),
        filename="main.py",
        data=LOGGING_BOT.encode(),
    )
    builder = next(b for b in ensure_builtin_bots(game) if b.name == "builder")
    played = dispatch_match(
        create_match(
            game=game,
            versions=[mine, builder.latest_version()],
            seed=4,
            time_control={"move_ms": 5000},
        )
    )
    assert played.status == MatchStatus.FINISHED, played.error
    return played
