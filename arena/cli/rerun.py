"""``arena play --from-replay FILE --at STEP --seat N BOT``: a recorded match played on from one
of its decisions with seat N's bot replaced (arena/resume.py), and how it then differed."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from arena.cli.shared import UsageError, stdout
from arena.contract import BUILTIN_PREFIX, TimeControl, builtin_bot
from arena.protocol import canonical

if TYPE_CHECKING:
    from arena.outcome import MatchOutcome

#: The options whose default, in a re-run, is the record's value (so they default to None).
RECORDED = ("start_ms", "move_ms", "bank_ms", "fault_limit")


def add_rerun_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "re-running a recorded match",
        "The time control, fault limit and decision cap default to the record's.",
    )
    g.add_argument(
        "--from-replay",
        metavar="FILE",
        help="restore the match recorded in FILE at decision --at and play on from there",
    )
    g.add_argument(
        "--at",
        type=int,
        metavar="STEP",
        help="the decision to play on from, counted from 0 (the viewer's 'decision #STEP'): "
        "the record is replayed up to it, and BOT makes seat N's decisions from it on",
    )
    g.add_argument("--seat", type=int, metavar="N", help="the seat BOT plays from STEP on")
    g.add_argument(
        "--others",
        action="append",
        default=[],
        metavar="SPEC",
        help="the bot for the other seats once the game leaves the record: once for all, or "
        "once per other seat in seat order (default: the seat's recorded built-in bot, or "
        "the game's own built-in, e.g. greedy, where an uploaded bot sat)",
    )
    p.set_defaults(**dict.fromkeys(RECORDED))


def time_control(args: argparse.Namespace, base: TimeControl) -> TimeControl:
    """The time options given, the rest from ``base``."""

    return TimeControl(
        **{
            k: getattr(args, k) if getattr(args, k) is not None else v
            for k, v in base.to_json().items()
        }
    )


def _bots(doc: dict[str, Any], seat: int, bot: str, others: list[str]) -> list[str]:
    """One spec per seat: ``bot`` at ``seat``, the ``--others`` elsewhere (by default, each
    other seat's recorded built-in bot, or the game's own built-in for an uploaded one)."""
    players = len(doc["seats"])
    if not others:
        recorded = _recorded_others(doc, seat)
        return [bot if i == seat else recorded[i] for i in range(players)]
    if len(others) == 1:
        others = others * (players - 1)
    elif len(others) != players - 1:
        raise UsageError(
            f"--others: give one bot (for every other seat) or {players - 1} (one per "
            f"other seat, in seat order), not {len(others)}"
        )
    return [*others[:seat], bot, *others[seat:]]


def _recorded_others(doc: dict[str, Any], seat: int) -> dict[int, str]:
    """Who plays each other seat once the game leaves the record: the recorded built-in; the
    recorded uploaded version itself when it is the caller's (fetched from the site they are
    logged in to); else the game's own built-in. Says on stderr which seats fell back."""
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.cli.owned_code import OwnedCode, version_id

    owned: OwnedCode | None = None
    chosen: dict[int, str] = {}
    for i, entry in enumerate(doc["seats"]):
        if i == seat:
            continue
        version = version_id(str((entry or {}).get("bot") or ""))
        if version is not None:
            owned = owned or OwnedCode()
            path = owned.path(version)
            if path is not None:
                chosen[i] = path
                continue
        chosen[i] = _default_other(doc, i)
        if owned is not None and version is not None:
            why = owned.why.get(version, "")
            print(f"arena: seat {i} (version:{version}: {why}) plays {chosen[i]}", file=sys.stderr)
    return chosen


def _default_other(doc: dict[str, Any], seat: int) -> str:
    """The recorded built-in of ``seat`` (its own code, warmed up on the record), else the
    game's strongest built-in (a random mover is no test of a bot that left the record)."""
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from games import registry

    known = list(registry.bots(doc["game"]))
    spec = str((doc["seats"][seat] or {}).get("bot") or "")
    if spec.startswith(BUILTIN_PREFIX) and spec.removeprefix(BUILTIN_PREFIX) in known:
        return spec
    house = [name for name in known if name != "random"] or known
    return builtin_bot(house[0])


def play_from_replay(
    args: argparse.Namespace, human: dict[str, Any]
) -> tuple[MatchOutcome, dict[str, Any]]:
    """Play the re-run the arguments ask for; its outcome and :func:`arena.resume.compare`."""
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    # lazy: only this command loads it, `arena --help` stays fast (arena/cli/__init__.py)
    from arena.referee import run_match
    from arena.replay import load_replay
    from arena.resume import Resume, ResumeError, compare

    if args.at is None or args.seat is None:
        raise UsageError("--from-replay wants --at STEP and --seat N")
    if args.seed is not None or args.option:
        raise UsageError("a re-run plays the record's seed and options: no --seed or --option")
    given = [args.game, *args.bots]
    if len(given) > 2:
        raise UsageError("--from-replay plays one BOT (for --seat), optionally after GAME")
    doc = load_replay(args.from_replay)
    if len(given) == 2 and given[0] != doc.get("game"):
        raise ResumeError(f"{args.from_replay} is a match of {doc.get('game')}, not {given[0]}")
    resume = Resume(doc, args.at, args.seat, source=args.from_replay)
    try:
        recorded_time = TimeControl.from_json(doc.get("time"))
    except ValueError as e:
        raise ResumeError(f"{args.from_replay}: {e}") from None
    outcome = run_match(
        doc["game"],
        _bots(doc, args.seat, given[-1], args.others),
        seed=doc["seed"],
        options=doc["options"],
        time=time_control(args, recorded_time),
        sandbox=args.sandbox,
        fault_limit=_given(args.fault_limit, doc.get("fault_limit", 3)),
        max_decisions=_given(args.max_decisions, doc.get("max_decisions")),
        resume=resume,
        **human,
    )
    return outcome, {"file": args.from_replay, **compare(doc, outcome.replay, args.at, args.seat)}


def _given(value: Any, recorded: Any) -> Any:
    return recorded if value is None else value


def print_comparison(summary: dict[str, Any]) -> None:
    """Where the re-run left the record, and both results, in words."""
    out = stdout()
    seat, changed, diverged = summary["seat"], summary["seat_changed"], summary["diverged_at"]
    out.print(
        f"re-run of {summary['file']} from decision {summary['step']}, seat {seat} replaced",
        markup=False,
    )
    if changed is not None:
        out.print(
            f"seat {seat} first chose differently at decision {changed['step']}: "
            f"{canonical(changed['now']['action'])} (recorded: "
            f"{canonical(changed['recorded']['action'])})",
            markup=False,
        )
    elif diverged is None:
        out.print(f"seat {seat} chose as recorded at every decision", markup=False)
    if diverged is None:
        out.print("the game followed the record to its end", markup=False)
    else:
        out.print(f"the game left the record at decision {diverged}", markup=False)
    for label, key in (("recorded", "recorded_result"), ("now", "result")):
        r = summary[key]
        if r["status"] != "finished":
            out.print(f"{label:>8}: the match ended in {r['status']}", markup=False)
        else:
            out.print(
                f"{label:>8}: scores {r['scores']}, ranks {r['ranks']} ({r['reason']})",
                markup=False,
            )
