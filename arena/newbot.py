"""``arena new-bot GAME DIR --lang LANG``: a commented starter bot in one of the languages of
``sandbox.languages`` (arena/starters/<lang>/, standard library only) and a README saying how to
build and run it locally, with a real ``act`` message of the game. The site offers the same
files as a zip (:func:`starter_zip`)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from arena import protocol
from arena.contract import builtin_bot
from games import registry
from games.base import JSON
from games.rng import Rng
from sandbox.languages import LANGUAGES, Language, UnknownLanguage, get_language

#: One starter per language, each game-agnostic: arena/starters/<key>/<its source file>.
STARTERS = Path(__file__).with_name("starters")
#: The Python starter (the default): what the demo uploads.
STARTER = STARTERS / "python" / "main.py"
#: The line of every starter that :func:`starter_files` replaces with the game's name.
GAME_LINE = "Game: any Meeple Arena game"
EXAMPLE_CHARS = 3000


__all__ = ["UnknownLanguage", "new_bot", "starter_files", "starter_languages", "starter_zip"]


def starter_languages() -> list[tuple[str, str]]:
    """Every language a starter is offered in, as (key, name as people read it): Python first
    (the default), then as ``sandbox.languages`` lists them."""
    return [(key, lang.name) for key, lang in LANGUAGES.items()]


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


def starter_path(lang: Language) -> Path:
    """The starter source of ``lang`` in this checkout."""
    return STARTERS / lang.key / lang.source


def readme(game: str, lang: str | Language | None = None) -> str:
    """The starter bot's README: what it is, how to build, run and upload it, the protocol's
    rules that bite, and the game's players, options and a real ``act`` message."""
    g = registry.get_game(game)
    language = lang if isinstance(lang, Language) else get_language(lang)
    source = language.source
    runtime = language.runtime
    sections = [
        f"""# A bot for {g.name} (`{game}`), in {language.name}

`{source}` is a complete bot: it speaks the bot protocol (version 1) on stdin/stdout and plays a
random legal move, logging each decision to stderr. It uses only the standard library. Change
`choose()` to play better; its comment shows how to read the observation and the actions.""",
        _build(language),
        _run_locally(game, language),
        f"""## Upload it

On the site, "Upload a bot" creates the bot; then upload `{source}`, or this folder as a `.zip`
with `{source}` at its root. To upload from a script or your CI, see the site's "Use the API"
page (`/docs/api/`). Uploaded bots run with:
{runtime}.""",
        _RULES_THAT_BITE,
        _game_facts(game),
    ]
    return "\n\n".join(sections) + "\n"


def _shell(command: tuple[str, ...]) -> str:
    """A command as one would type it (``sh -c '...'`` shown as its script)."""
    if command[:2] == ("sh", "-c"):
        return command[2]
    return " ".join(command)


def _build(lang: Language) -> str:
    """How the bot is built: what the site and ``arena play`` run, and the tools it needs."""
    tools = ", ".join(f"`{t}`" for t in lang.host_tools)
    if not lang.build:
        check = f" (the site checks its syntax first: `{_shell(lang.check)}`)" if lang.check else ""
        return f"""## Build it

Nothing to build: it runs as `{_shell(lang.run)}`{check}. Running it on this machine needs
{tools}."""
    return f"""## Build it

The site builds every upload once, with no network, by running in the bot's folder

    {_shell(lang.build)}

and then runs `{_shell(lang.run)}`. `arena play` and `arena tournament` run the same build in a
temporary copy of this folder, with this machine's {tools}; a build error is printed with the
compiler's first lines. To build by hand, run the command above here."""


_RULES_THAT_BITE = """## The rules that bite

- One JSON object per line on stdout, flushed. Anything else on stdout is a fault.
- Answer `start` with `{"type": "ready"}` within `start_ms`, each `act` within
  `time_left_ms`. A timeout ends your program for the rest of the match.
- Three faults (bad JSON, an action not in `legal_actions`, an index out of range...) retire
  the seat: the first legal action is played for it and it ranks below every other seat."""


def _run_locally(game: str, lang: Language) -> str:
    """The README's commands: a match, a tournament, and a ``start`` message to paste."""
    g = registry.get_game(game)
    players = max(g.min_players, 2)
    opponents = " ".join([builtin_bot("random")] * (players - 1))
    bots = ", ".join(f"`{builtin_bot(b)}`" for b in registry.bots(game))
    everyone = " ".join(builtin_bot(b) for b in registry.bots(game))
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
not in the list...). Your bot's stderr (its log lines) is kept in the replay's `logs`.

Many matches against several opponents, with Elo and OpenSkill standings:

    arena tournament {game} . {everyone} --games 4

Or talk to it by hand: build it, start it with `{_shell(lang.run)}` and paste

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


def starter_files(game: str, lang: str | None = None) -> dict[str, str]:
    """The starter bot of ``game`` in ``lang`` (None: Python), file name -> text: what
    ``arena new-bot`` writes and what the site's starter-bot download holds. Raises
    ``GameError`` for an unknown game, ``UnknownLanguage`` for an unknown language."""
    g = registry.get_game(game)
    language = get_language(lang)
    source = starter_path(language).read_text(encoding="utf-8")
    source = source.replace(GAME_LINE, f"Game: {g.name} ({game}), written by arena new-bot", 1)
    return {language.source: source, "README.md": readme(game, language)}


def starter_zip(game: str, lang: str | None = None) -> bytes:
    """:func:`starter_files` as a zip with the source file at its root (so the zip itself is
    an upload the platform accepts). Fixed timestamps: the same game and language give the
    same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in starter_files(game, lang).items():
            info = zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def new_bot(
    game: str, folder: str | Path, *, lang: str | None = None, force: bool = False
) -> list[Path]:
    """Write the starter source of ``lang`` (None: Python) and ``README.md`` into ``folder``;
    returns the files written."""
    texts = starter_files(game, lang)
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
