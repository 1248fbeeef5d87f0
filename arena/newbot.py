"""``arena new-bot GAME DIR``: a commented starter bot (arena/starter_bot.py, standard library
only) and a README saying how to run it locally, with a real ``act`` message of the game."""

from __future__ import annotations

import json
from pathlib import Path

from arena import protocol
from games import registry

STARTER = Path(__file__).with_name("starter_bot.py")
EXAMPLE_CHARS = 3000


class NewBotError(ValueError):
    """The folder cannot be used for a new bot."""


def example_act(game: str) -> str:
    """The first ``act`` message of a seeded match of ``game``, shortened if long."""
    g = registry.get_game(game)
    state = g.new_game(g.min_players, seed=1)
    seat = state.current_seat()
    assert seat is not None
    msg = protocol.act_message(0, seat, state.observation(seat), state.legal_actions(), 1000)
    text = json.dumps(msg)
    if len(text) > EXAMPLE_CHARS:
        text = text[:EXAMPLE_CHARS] + " ... (cut)"
    return text


def readme(game: str) -> str:
    g = registry.get_game(game)
    players = max(g.min_players, 2)
    opponents = " ".join(["builtin:random"] * (players - 1))
    options = (
        "\n".join(f"- `{o.name}` (default `{json.dumps(o.default)}`): {o.help}" for o in g.options)
        or "- none"
    )
    bots = ", ".join(f"`builtin:{b}`" for b in registry.bots(game))
    everyone = " ".join(f"builtin:{b}" for b in registry.bots(game))
    return f"""# A bot for {g.name} (`{game}`)

`main.py` is a complete bot: it speaks the bot protocol (version 1) on stdin/stdout and plays a
random legal move. It uses only the Python standard library. Change `choose()` to play better.

## Run it locally

Play one match against the built-in bots ({bots}):

    arena play {game} . {opponents} --seed 1

Add `--replay match.json` to keep the replay, `--json` for machine-readable output, and
check a replay with `arena replay verify match.json`. The results table says, per seat, the
score, rank and status, and which faults happened and why (timeout, invalid JSON, an action
not in the list...). Your bot's stderr (the `log()` function) is kept in the replay's `logs`.

Many matches against several opponents, with Elo and OpenSkill standings:

    arena tournament {game} . {everyone} --games 4

Or talk to it by hand: start it with `python3 main.py` and paste

    {
        json.dumps(
            protocol.start_message(
                game,
                "local",
                0,
                players,
                g.check_options({}),
                {"start_ms": 5000, "move_ms": 1000, "bank_ms": 10000},
            )
        )
    }

then an `act` message such as the one below; it answers `{{"action_index": ..., "turn": 0}}`.

## The rules that bite

- One JSON object per line on stdout, flushed. Anything else on stdout is a fault.
- Answer `start` with `{{"type": "ready"}}` within `start_ms`, each `act` within
  `time_left_ms`. A timeout ends your program for the rest of the match.
- Three faults (bad JSON, an action not in `legal_actions`, an index out of range...) retire
  the seat: the first legal action is played for it and it ranks below every other seat.

## {g.name}: {g.min_players} to {g.max_players} players; options

{options}

## A real `act` message of this game

    {example_act(game)}
"""


def new_bot(game: str, folder: str | Path, *, force: bool = False) -> list[Path]:
    """Write ``main.py`` and ``README.md`` into ``folder``; returns the files written."""
    registry.get_game(game)  # unknown game: a clear GameError
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise NewBotError(f"{target} exists and is not a folder")
    files = {target / "main.py": STARTER.read_text(), target / "README.md": readme(game)}
    clash = [str(f) for f in files if f.exists()]
    if clash and not force:
        raise NewBotError(f"{', '.join(clash)} already exist(s); use --force to overwrite")
    target.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)
