"""The interface every game implements.

A game is a :class:`Game` (static facts: slug, player counts, options, and a factory) and a
:class:`GameState` (one position in a match). States are sequential and turn-based: at every
moment one seat owes one decision, chosen from a finite list of JSON values. Chance (dice,
shuffles, draws) is resolved inside ``apply`` by the state's own seeded RNG and is never a
decision, so a match is fully determined by (game, players, seed, options, actions).

Shapes (all plain JSON):

* an *action* is any JSON value, usually a dict such as ``{"type": "take", "slot": 3}``;
* an *observation* is a dict holding everything one seat may know and nothing else;
* an *event* is a dict describing something public that happened (``{"type": "roll", ...}``);
* a :class:`Result` has ``scores``, ``ranks`` (1 = first, ties share a rank) and ``reason``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rng import Rng

JSON = Any
Action = JSON


class GameError(ValueError):
    """Bad input to a game: wrong player count, unknown option, malformed state."""


class IllegalAction(GameError):
    """An action that is not in the current legal-action list."""


@dataclass(frozen=True)
class Option:
    """One documented game option (shown by ``arena games`` and the web site)."""

    name: str
    default: JSON
    help: str
    kind: type = int
    choices: tuple[JSON, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: JSON) -> JSON:
        if self.kind is bool:
            if not isinstance(value, bool):
                raise GameError(f"option {self.name!r} must be true or false, got {value!r}")
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameError(f"option {self.name!r} must be an integer, got {value!r}")
        elif not isinstance(value, self.kind):
            raise GameError(f"option {self.name!r} must be {self.kind.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = list(self.choices)
            raise GameError(f"option {self.name!r} must be one of {allowed}, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise GameError(f"option {self.name!r} must be at least {self.minimum}, got {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise GameError(f"option {self.name!r} must be at most {self.maximum}, got {value!r}")
        return value


@dataclass
class Result:
    """The end of a match. ``ranks[i]`` is 1 for first; seats with equal rank tied."""

    scores: list[int | float]
    ranks: list[int]
    reason: str = "normal"
    details: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"scores": self.scores, "ranks": self.ranks, "reason": self.reason}
        if self.details:
            out["details"] = self.details
        return out


def competition_ranks(keys: list[Any]) -> list[int]:
    """Ranks for sort keys where larger is better; equal keys share a rank ("1224" ranking)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


class GameState(ABC):
    """One position of a match. Mutable: ``apply`` changes it in place (copy with ``clone``)."""

    game: ClassVar[Game]

    #: Set only by :meth:`apply_keeping_round_end` (a replay viewer's copy): never serialised.
    keep_round_end: bool = False
    round_end_position: dict[str, JSON] | None = None

    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat that owes the next decision, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal choice for ``current_seat()``; never empty while the game runs."""

    @abstractmethod
    def apply(self, action: Action) -> list[dict[str, JSON]]:
        """Play ``action`` for the current seat, resolve chance, return the public events.

        Raises :class:`IllegalAction` (state unchanged) if ``action`` is not legal.
        """

    @abstractmethod
    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may know now: public facts plus its own private ones, nothing else."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """The final result; raises :class:`GameError` before the game is over."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The whole state (including the RNG) as plain JSON."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, JSON]) -> GameState: ...

    @abstractmethod
    def resample_hidden(self, seat: int, seed: int) -> GameState:
        """A copy that ``seat`` cannot tell apart from this one: everything ``seat`` may not
        know (others' hands, deck order, the RNG) redrawn from ``seed``. Used by the no-leak
        conformance test and by search bots (determinisation)."""

    @property
    @abstractmethod
    def players(self) -> int: ...

    def clone(self) -> GameState:
        return type(self).from_json(self.to_json())

    def apply_index(self, index: int) -> list[dict[str, JSON]]:
        return self.apply(self.legal_actions()[index])

    def keep_round_end_position(self) -> None:
        """Engines that deal a new round inside ``apply`` call this just before the deal, so
        that a viewer can draw the position that ended the round (scores settled, the board
        not yet cleared). Free unless :meth:`apply_keeping_round_end` asked for it."""
        if self.keep_round_end:
            self.round_end_position = self.to_json()

    def apply_keeping_round_end(
        self, action: Action
    ) -> tuple[list[dict[str, JSON]], dict[str, JSON] | None]:
        """``apply`` that also returns the state's JSON just before a new round was dealt
        (None when this decision dealt no new round)."""
        self.keep_round_end, self.round_end_position = True, None
        try:
            events = self.apply(action)
        finally:
            self.keep_round_end = False
        position, self.round_end_position = self.round_end_position, None
        return events, position


class Game(ABC):
    """Static facts about a game and a factory for its states."""

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    #: A short description for listings.
    summary: ClassVar[str] = ""

    @abstractmethod
    def new_state(self, players: int, seed: int, options: dict[str, JSON]) -> GameState:
        """Implement with already-checked ``options`` (defaults filled in)."""

    def new_game(
        self, players: int, seed: int = 0, options: dict[str, JSON] | None = None
    ) -> GameState:
        """Set up a match: checks the player count and options, then deals with ``seed``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise GameError(f"{self.slug}: player count must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            span = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise GameError(f"{self.slug} is played by {span} players, not {players}")
        return self.new_state(players, seed, self.check_options(options or {}))

    def check_options(self, options: dict[str, JSON]) -> dict[str, JSON]:
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise GameError(f"{self.slug}: unknown option(s) {', '.join(unknown)} (known: {names})")
        return {
            name: o.check(options[name]) if name in options else o.default
            for name, o in known.items()
        }

    def state_from_json(self, data: dict[str, JSON]) -> GameState:
        return self.state_class().from_json(data)

    @abstractmethod
    def state_class(self) -> type[GameState]: ...

    def describe(self) -> dict[str, JSON]:
        return {
            "slug": self.slug,
            "name": self.name,
            "summary": self.summary,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [
                {
                    "name": o.name,
                    "default": o.default,
                    "help": o.help,
                    "choices": list(o.choices) if o.choices else None,
                    "minimum": o.minimum,
                    "maximum": o.maximum,
                }
                for o in self.options
            ],
        }


class Bot(ABC):
    """A built-in bot. It sees exactly what a protocol bot sees: the observation and the legal
    actions of each decision (and the ``start`` facts), nothing else. Bots may keep memory."""

    def __init__(self, seat: int, players: int, options: dict[str, JSON], seed: int) -> None:
        self.seat = seat
        self.players = players
        self.options = options
        self.rng = Rng(seed)

    @abstractmethod
    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        """Return the index of the chosen action in ``legal_actions``."""


class RandomBot(Bot):
    """Uniformly random over the legal actions: the baseline every game ships."""

    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        return self.rng.below(len(legal_actions))
