"""``arena replay why FILE --at STEP --seat N``: what a seat was told at one decision and what it
answered, with its time, faults and log lines (arena/why.py)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from arena.cli.shared import EXIT_OK, Subcommands, stdout
from arena.protocol import canonical


def register_why(actions: Subcommands) -> None:
    w = actions.add_parser(
        "why",
        help="what a seat was told at one decision and what it answered",
        description="Re-simulate the replay to decision STEP and show what seat N was told "
        "(the act message: observation, legal actions, time left), what it answered (index, "
        "action, time, fault and its reason) and the log lines it wrote to stderr meanwhile.",
    )
    w.add_argument("file", metavar="FILE", help="a replay (arena play --replay, replay fetch)")
    w.add_argument(
        "--at",
        type=int,
        required=True,
        metavar="STEP",
        help="the decision, counted from 0: the viewer's 'decision #STEP' (shown at its step "
        "STEP+1, the position after it)",
    )
    w.add_argument("--seat", type=int, required=True, metavar="N", help="the seat that decided")
    w.add_argument("--json", action="store_true", help="print one JSON object")
    w.set_defaults(run=run_why)


def run_why(args: argparse.Namespace) -> int:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.replay import load_replay
    from arena.why import explain

    doc = load_replay(args.file)
    found = explain(doc, args.at, args.seat)
    if args.json:
        print(json.dumps({"file": args.file, **found}))
    else:
        _print(found, args.file, _withheld(doc, args.seat, str(found["bot"])))
    return EXIT_OK


#: Why a site's uploaded bot may have no log lines in a replay.
WITHHELD = (
    " (from the site, a replay holds a bot's logs only for its owner, "
    "fetched logged in: `arena replay fetch`)"
)


def _withheld(doc: dict[str, Any], seat: int, bot: str) -> bool:
    """Whether the seat is a site's uploaded bot (``version:N``) with no log in the file at all:
    its logs were most likely not sent to whoever fetched it."""
    logs = doc.get("logs")
    text = logs[seat] if isinstance(logs, list) and seat < len(logs) else None
    return bot.startswith("version:") and not text


def _print(found: dict[str, Any], file: str, withheld: bool = False) -> None:
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.why import NO_LOGS

    out = stdout()

    def say(text: str = "") -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    step, seat, answer = found["step"], found["seat"], found["answer"]
    say(
        f"decision {step} of {file} ({found['game']}, seed {found['seed']}): "
        f"seat {seat}, {found['bot']} ({found['kind']})"
    )
    act = found["act"]
    if act is None:
        say("told nothing: the seat was retired, the referee played the first legal action")
    else:
        if act["time_left_ms"] is None:  # a built-in bot: called in-process, no clock
            say(f"told (turn {act['turn']}, as a built-in bot is called):")
        else:
            say(f"told (the act message: turn {act['turn']}, time_left_ms {act['time_left_ms']}):")
        say("  observation:")
        for key, value in sorted(act["observation"].items()):
            say(f"    {key}: {canonical(value)}")
        say(f"  legal actions ({len(act['legal_actions'])}):")
        for i, action in enumerate(act["legal_actions"]):
            mark = ">" if i == answer["index"] else " "
            say(f"  {mark} {i:>3}  {canonical(action)}")
    ms = "" if answer["ms"] is None else f" in {answer['ms']} ms"
    played = "played for it (default)" if answer["default"] else "answered"
    say(f"{played}: index {answer['index']}, {canonical(answer['action'])}{ms}")
    for f in found["faults"]:
        say(f"fault: {f['kind']}: {f['detail']}")
    if answer["stale"]:
        say(f"stale answers discarded: {answer['stale']}")
    if answer["log"] is not None:
        say(f'its "log": {answer["log"]}')
    logs = found["logs"]
    hint = WITHHELD if withheld else ""
    if logs is None:
        say(NO_LOGS + hint)
    elif not logs:
        say("no log lines at this decision" + hint)
    else:
        say("log lines:")
        for line in logs.rstrip("\n").splitlines():
            say(f"  | {line}")
