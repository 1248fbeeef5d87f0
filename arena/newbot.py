"""``arena new-bot GAME DIR``: a commented starter bot (arena/starter_bot.py, standard library
only) and a README saying how to run it locally, with a real ``act`` message of the game. The
site offers the same files as a zip (:func:`starter_zip`)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from arena import protocol
from games import registry
from games.base import JSON
from games.rng import Rng

STARTER = Path(__file__).with_name("starter_bot.py")
#: What uploaded bots run with: the runtime image (deploy/runtime/Dockerfile,
#: deploy/build-runtime-image.sh, ``sandbox.docker.RUNTIME_IMAGE``). Shown on the upload page
#: and in the starter README; tests/arena/test_newbot.py keeps it true to the image.
RUNTIME_PYTHON = "3.11"
RUNTIME_LIBRARIES = ("numpy",)
RUNTIME = (
    f"Python {RUNTIME_PYTHON}, its standard library and {', '.join(RUNTIME_LIBRARIES)}; "
    "no network, and nothing can be installed"
)
EXAMPLE_CHARS = 3000


class NewBotError(ValueError):
    """The folder cannot be used for a new bot."""


def example_act_message(game: str) -> dict[str, Any]:
    """The first ``act`` message of a seeded match of ``game`` (seed 1, fewest players), as
    the referee builds it."""
    g = registry.get_game(game)
    state = g.new_game(g.min_players, seed=1)
    seat = state.current_seat()
    assert seat is not None
    msg: dict[str, Any] = protocol.act_message(
        0, seat, state.observation(seat), state.legal_actions(), 1000
    )
    return msg


def action_shapes(game: str, seed: int = 1, max_decisions: int = 5000) -> list[JSON]:
    """One example of each shape of action met in a seeded match of random moves: actions
    that differ only in their values (``{"type": "take", "slot": 3}`` and ``slot: 5``) count
    once. In the order first met."""
    g = registry.get_game(game)
    state = g.new_game(max(g.min_players, 2), seed=seed)
    rng = Rng(seed)
    seen: dict[str, JSON] = {}
    for _ in range(max_decisions):
        if state.is_over():
            break
        legal = state.legal_actions()
        for action in legal:
            seen.setdefault(_shape(action), action)
        state.apply(legal[rng.below(len(legal))])
    return list(seen.values())


def _shape(value: JSON) -> str:
    if isinstance(value, dict):
        # the "type" value names the shape; other values are just values
        named = {k: v for k, v in value.items() if k == "type"}
        return json.dumps([named, sorted(value)], sort_keys=True)
    return type(value).__name__


def example_act(game: str) -> str:
    """The first ``act`` message of a seeded match of ``game``, shortened if long."""
    text = json.dumps(example_act_message(game))
    if len(text) > EXAMPLE_CHARS:
        text = text[:EXAMPLE_CHARS] + " ... (cut)"
    return text


def readme(game: str) -> str:
    """The starter bot's README: what it is, how to run and upload it, the protocol's rules
    that bite, and the game's players, options and a real ``act`` message."""
    g = registry.get_game(game)
    sections = [
        f"""# A bot for {g.name} (`{game}`)

`main.py` is a complete bot: it speaks the bot protocol (version 1) on stdin/stdout and plays a
random legal move. It uses only the Python standard library. Change `choose()` to play better.""",
        _run_locally(game),
        f"""## Upload it

On the site, "Upload a bot" creates the bot; then upload `main.py`, or this folder as a `.zip`
with `main.py` at its root. To upload from a script or your CI, see the site's "Use the API"
page (`/docs/api/`). Uploaded bots run with:
{RUNTIME}.""",
        _RULES_THAT_BITE,
        _game_facts(game),
    ]
    return "\n\n".join(sections) + "\n"


_RULES_THAT_BITE = """## The rules that bite

- One JSON object per line on stdout, flushed. Anything else on stdout is a fault.
- Answer `start` with `{"type": "ready"}` within `start_ms`, each `act` within
  `time_left_ms`. A timeout ends your program for the rest of the match.
- Three faults (bad JSON, an action not in `legal_actions`, an index out of range...) retire
  the seat: the first legal action is played for it and it ranks below every other seat."""


def _run_locally(game: str) -> str:
    """The README's commands: a match, a tournament, and a ``start`` message to paste."""
    g = registry.get_game(game)
    players = max(g.min_players, 2)
    opponents = " ".join(["builtin:random"] * (players - 1))
    bots = ", ".join(f"`builtin:{b}`" for b in registry.bots(game))
    everyone = " ".join(f"builtin:{b}" for b in registry.bots(game))
    start = protocol.start_message(
        game,
        "local",
        0,
        players,
        g.check_options({}),
        {"start_ms": 5000, "move_ms": 1000, "bank_ms": 10000},
    )
    return f"""## Run it locally

The commands below use `arena`, the command line that comes with Meeple Arena. It lives in the
checkout's virtual environment: activate it once per shell with
`source /path/to/meeple-arena/.venv/bin/activate`, or type the full path
`/path/to/meeple-arena/.venv/bin/arena` wherever `arena` is written. Run them in this folder.

Play one match against the built-in bots ({bots}):

    arena play {game} . {opponents} --seed 1

Add `--replay match.json` to keep the replay, `--json` for machine-readable output, and
check a replay with `arena replay verify match.json`. The results table says, per seat, the
score, rank and status, and which faults happened and why (timeout, invalid JSON, an action
not in the list...). Your bot's stderr (the `log()` function) is kept in the replay's `logs`.

Many matches against several opponents, with Elo and OpenSkill standings:

    arena tournament {game} . {everyone} --games 4

Or talk to it by hand: start it with `python3 main.py` and paste

    {json.dumps(start)}

then an `act` message such as the one below; it answers `{{"action_index": ..., "turn": 0}}`."""


def _game_facts(game: str) -> str:
    """The game's player counts and options, and a real ``act`` message of it."""
    g = registry.get_game(game)
    options = (
        "\n".join(f"- `{o.name}` (default `{json.dumps(o.default)}`): {o.help}" for o in g.options)
        or "- none"
    )
    return f"""## {g.name}: {g.min_players} to {g.max_players} players; options

{options}

## A real `act` message of this game

    {example_act(game)}"""


def starter_files(game: str) -> dict[str, str]:
    """The starter bot of ``game``, file name -> text: what ``arena new-bot`` writes and what
    the site's starter-bot download holds."""
    registry.get_game(game)  # unknown game: a clear GameError
    return {"main.py": STARTER.read_text(encoding="utf-8"), "README.md": readme(game)}


def starter_zip(game: str) -> bytes:
    """:func:`starter_files` as a zip with ``main.py`` at its root (so the zip itself is an
    upload the platform accepts). Fixed timestamps: the same game gives the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in starter_files(game).items():
            info = zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def new_bot(game: str, folder: str | Path, *, force: bool = False) -> list[Path]:
    """Write ``main.py`` and ``README.md`` into ``folder``; returns the files written."""
    texts = starter_files(game)
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise NewBotError(f"{target} exists and is not a folder")
    files = {target / name: text for name, text in texts.items()}
    clash = [str(f) for f in files if f.exists()]
    if clash and not force:
        raise NewBotError(f"{', '.join(clash)} already exist(s); use --force to overwrite")
    target.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)
