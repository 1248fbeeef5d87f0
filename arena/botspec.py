"""Bot specifications as users write them: a path (a source file such as ``main.py`` or
``main.cpp``, a folder or a ``.zip`` holding a bot in any language of ``sandbox.languages``),
``builtin:NAME`` for one of the game's built-in bots, or ``human`` for a person
(arena/human_seat.py; only where a human channel is given)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from arena.contract import BUILTIN_PREFIX
from games import registry
from sandbox.bundle import BundleError, check_bundle_path
from sandbox.code import BOT_ENTRIES
from sandbox.languages import LANGUAGES, recognise

HUMAN = "human"


class BotSpecError(ValueError):
    """A bot specification that names nothing usable."""

    #: Set when the message names files of a private bundle: the text others may see instead.
    public: str


@dataclass(frozen=True)
class StoredCode:
    """An uploaded version's code on this worker (``arena.codestore.seat_code``): its file, and
    what the match spec says of it, believed over anything its files say: its ``language``
    (None: recognised from the files, for a spec from before specs named it) and whether it
    is the version's stored build (``built``, verified against the spec's hash)."""

    path: str
    language: str | None = None
    built: bool = False


@dataclass(frozen=True)
class BotSpec:
    text: str
    builtin: str | None = None
    path: Path | None = None
    human: bool = False
    #: A stored version's language and build, from the match spec (:class:`StoredCode`).
    language: str | None = None
    built: bool = False

    @property
    def is_builtin(self) -> bool:
        return self.builtin is not None


def parse_bot_spec(bot: str | StoredCode, game: str) -> BotSpec:
    """Check ``bot`` for ``game`` without starting anything; raises :class:`BotSpecError`. A
    :class:`StoredCode` is checked as its path is, and keeps what the spec said of it."""
    if isinstance(bot, StoredCode):
        spec = parse_bot_spec(bot.path, game)
        if spec.path is None:
            raise BotSpecError(f"stored code {bot.path!r} is no file")
        return replace(spec, language=bot.language, built=bot.built)
    text = bot
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError(f"empty bot specification {text!r}")
    if text == HUMAN:
        return BotSpec(text=text, human=True)
    if text.startswith(BUILTIN_PREFIX):
        name = text[len(BUILTIN_PREFIX) :]
        known = registry.bots(game)
        if name not in known:
            raise BotSpecError(
                f"{game} has no built-in bot {name!r} (built-ins: {', '.join(known)})"
            )
        return BotSpec(text=text, builtin=name)
    path = Path(text)
    if not path.exists():
        raise BotSpecError(f"bot {text!r}: no such file or folder (or use builtin:NAME)")
    sources = ", ".join(lang.source for lang in LANGUAGES.values())
    suffixes = {Path(lang.source).suffix for lang in LANGUAGES.values()}
    if path.is_dir():
        if not recognise([p.name for p in path.iterdir() if p.is_file()]):
            raise BotSpecError(f"bot folder {text!r} has no bot at its top (none of {sources})")
    elif path.suffix.lower() not in suffixes | {".zip"}:
        raise BotSpecError(
            f"bot {text!r}: expected a source file ({sources}), a folder or a .zip of a bot"
        )
    elif path.suffix == ".zip":
        # The site's upload check (sandbox.bundle): its walk of the zip, with every language's
        # files marking the bot's top.
        try:
            check_bundle_path(path, entries=BOT_ENTRIES)
        except BundleError as exc:
            error = BotSpecError(f"bot {text!r}: {exc}")
            error.public = exc.public  # what a match's public error may show (no file names)
            raise error from None
    return BotSpec(text=text, path=path)
