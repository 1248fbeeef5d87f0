"""The human seat: a person at the table, asked for each decision through a *human channel*
(a terminal here, a web page through the platform's cache-backed channel), under a generous
clock of its own. No answer in time, or a player who leaves, forfeits: the seat retires like a
bot that timed out (fault ``timeout``), and the replay records everything as for any seat.

The channel is injected: the referee knows only :class:`HumanChannel`. Each request carries
the seat's own observation, the legal actions with readable labels, and a ``view``: a state
the seat cannot tell from the real one (everything hidden from it redrawn at random, so the true
hidden cards never reach a channel) from which the game's picture is drawn for that seat
(``viewer=seat``: what it cannot know drawn as card backs and counts).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import select
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from arena import protocol as p
from arena.botspec import HUMAN
from arena.contract import MatchSpec
from arena.match_clock import nearer
from arena.pictures import render_text, seat_view
from arena.seats import Choice, Seat
from games.base import GameState

#: A person's clock (per decision) unless told otherwise: generous, as the issue asks.
DEFAULT_HUMAN_MOVE_MS = 300_000


@dataclass(frozen=True)
class HumanTime:
    """``move_ms``: how long a person may think about one decision before forfeiting."""

    move_ms: int = DEFAULT_HUMAN_MOVE_MS

    def __post_init__(self) -> None:
        if isinstance(self.move_ms, bool) or not isinstance(self.move_ms, int) or self.move_ms < 1:
            raise ValueError(f"human move_ms must be a positive integer, got {self.move_ms!r}")


@dataclass
class HumanRequest:
    """One decision asked of a person."""

    match_id: str
    game: str
    seat: int
    turn: int
    observation: dict[str, Any]
    legal: list[Any]
    labels: list[str]
    view: dict[str, Any] | None
    deadline: float  # time.time() seconds
    players: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "game": self.game,
            "seat": self.seat,
            "turn": self.turn,
            "players": self.players,
            "observation": self.observation,
            "legal": self.legal,
            "labels": self.labels,
            "view": self.view,
            "deadline": self.deadline,
        }


@dataclass(frozen=True)
class HumanEnd:
    """The end of a match, told to a person's seat: the referee's ``result`` and ``view``, the
    last position as the seat may know it (hidden parts redrawn, as in a request's view; None
    if the seat never saw the table), from which the channel draws the end (the final clear-out,
    the scores) for that seat."""

    match_id: str
    game: str
    seat: int
    result: dict[str, Any]
    view: dict[str, Any] | None


class HumanGone(Exception):
    """The person left (closed the input, resigned, the page's token expired)."""


class HumanChannel(Protocol):
    """Asks a person. ``ask`` returns a legal index, or ``None`` if the deadline passed, or
    raises :class:`HumanGone`; it must never return an index outside the legal list."""

    def ask(self, request: HumanRequest) -> int | None: ...

    def finish(self, end: HumanEnd) -> None: ...


#: ``factory(spec) -> (channel, clock or None)``: how a worker reaches the people of a match.
ChannelFactory = Callable[[MatchSpec], "tuple[HumanChannel, HumanTime | None]"]
_factory: ChannelFactory | None = None


def register_channel_factory(factory: ChannelFactory | None) -> None:
    """Install how this worker asks people (the site's ``play`` app registers a channel over
    its shared cache, as ``bots`` registers a code fetcher); None removes it."""
    global _factory
    _factory = factory


def channel_for(spec: MatchSpec) -> tuple[HumanChannel, HumanTime | None]:
    """The channel for a spec with ``human`` seats; ``ValueError`` when none is registered."""
    if _factory is None:
        raise ValueError("this worker cannot seat people: no human channel is registered")
    return _factory(spec)


def action_label(action: Any) -> str:
    """A readable one-line label: ``{"type": "take", "slot": 3}`` -> ``take: slot 3``."""
    if isinstance(action, dict):
        kind = action.get("type")
        rest = [f"{k.replace('_', ' ')} {_short(v)}" for k, v in action.items() if k != "type"]
        head = str(kind).replace("_", " ") if kind is not None else ""
        if head and rest:
            return f"{head}: {', '.join(rest)}"
        return head or ", ".join(rest) or "{}"
    return _short(action)


def _short(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    return json.dumps(value, separators=(",", ":"))


class HumanSeat(Seat):
    """A person's seat. Its time is its own (``HumanTime``), not the bots' clock."""

    human = True

    def __init__(
        self,
        seat: int,
        fault_limit: int,
        channel: HumanChannel,
        *,
        match_id: str,
        game: str,
        players: int,
        time_control: HumanTime,
    ) -> None:
        super().__init__(seat, HUMAN, fault_limit)
        self.channel = channel
        self.match_id = match_id
        self.game = game
        self.players = players
        self.time_control = time_control
        self.name = HUMAN
        self.position: GameState | None = None
        # the view's hidden parts are redrawn from this seed (unrelated to the match seed); the
        # pictures drawn for this seat do not show them
        self.view_seed = secrets.randbits(63)

    def before_decision(self, state: GameState) -> None:
        self.position = state

    def decide(self, turn: int, observation: dict[str, Any], legal: list[Any]) -> Choice:
        view = None
        if self.position is not None:
            view = seat_view(self.position, self.seat, self.view_seed + turn)
        move_s = self.time_control.move_ms / 1000
        t0 = time.perf_counter()  # before the deadline is set: the charged time covers it
        # The person's clock, or the match's deadline when that comes first.
        until, cut = nearer(t0 + move_s, self.match_deadline)
        request = HumanRequest(
            match_id=self.match_id,
            game=self.game,
            seat=self.seat,
            turn=turn,
            players=self.players,
            observation=observation,
            legal=legal,
            labels=[action_label(a) for a in legal],
            view=view,
            deadline=time.time() + (until - t0),
        )
        try:
            index = self.channel.ask(request)
            gone = None
        except HumanGone as e:
            index, gone = None, str(e) or "the player left"
        ms = (time.perf_counter() - t0) * 1000
        self.time_ms += ms
        if index is None and gone is None and cut:
            assert self.match_deadline is not None
            raise self.match_deadline.error()  # the match is over, not the person late
        if index is None:
            detail = gone or (
                f"no decision within the human clock of {self.time_control.move_ms} ms"
            )
            self.fault(p.TIMEOUT, turn, detail)
            return Choice(index=0, ms=ms, default=True, fault=p.TIMEOUT)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            # a channel bug, not the person's: the platform's fault, never a silent default
            raise RuntimeError(f"human channel returned {index!r} for {len(legal)} actions")
        return Choice(index=index, ms=ms)

    def finish(self, result: dict[str, Any]) -> None:
        # the match is over and recorded; neither a picture nor a closed page may undo it
        view = None
        with contextlib.suppress(Exception):
            # ``position`` is the live state the referee advances in place: now the last one
            if self.position is not None:
                view = seat_view(self.position, self.seat, self.view_seed)
        with contextlib.suppress(Exception):
            self.channel.finish(HumanEnd(self.match_id, self.game, self.seat, result, view))


# -- the terminal channel (``arena play GAME human ...``) --------------------------------------


class TerminalChannel:
    """Asks on a text terminal: the game's text picture as the seat knows it, the seat's
    observation and the numbered legal actions; reads a number. ``q`` resigns (forfeits);
    end of input forfeits too. The clock runs while waiting: no answer by the deadline
    forfeits."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.out = stdout
        self._buffer = b""
        try:
            self._fd: int | None = stdin.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None  # e.g. io.StringIO in tests: read without a clock

    def _print(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _show(self, r: HumanRequest) -> None:
        self._print()
        self._print(f"=== {r.game}  turn {r.turn}  you are seat {r.seat} ===")
        if r.view is not None:
            picture = render_text(r.game, r.view, viewer=r.seat)
            if picture:
                self._print(picture)
        self._print("your observation:")
        for key, value in r.observation.items():
            self._print(f"  {key}: {json.dumps(value, separators=(',', ':'))}")
        self._print("legal actions:")
        for i, label in enumerate(r.labels):
            self._print(f"  [{i}] {label}")
        left = max(0, int(r.deadline - time.time()))
        self._print(f"your choice (0-{len(r.legal) - 1}, q to resign; {left} s left):")

    def ask(self, request: HumanRequest) -> int | None:
        self._show(request)
        while True:
            line = self._readline(request.deadline)
            if line is None:
                self._print("time is up: you forfeit this match")
                return None
            text = line.strip().lower()
            if text in ("q", "quit", "resign"):
                raise HumanGone("the player resigned")
            if text.isdigit() and int(text) < len(request.legal):
                return int(text)
            self._print(f"type a number from 0 to {len(request.legal) - 1}, or q to resign")

    def _readline(self, deadline: float) -> str | None:
        if self._fd is None:
            line = self.stdin.readline()
            if not line:
                raise HumanGone("end of input: the player left")
            return line
        # Our own line buffer over the raw descriptor: a buffered reader could hold a typed
        # line that select() would then never report.
        while b"\n" not in self._buffer:
            left = deadline - time.time()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._fd], [], [], left)
            if not ready:
                continue  # select may wake a little early: the deadline decides
            chunk = os.read(self._fd, 4096)
            if not chunk:
                if self._buffer:
                    rest, self._buffer = self._buffer, b""
                    return rest.decode(errors="replace")
                raise HumanGone("end of input: the player left")
            self._buffer += chunk
        line_bytes, _, self._buffer = self._buffer.partition(b"\n")
        return line_bytes.decode(errors="replace")

    def finish(self, end: HumanEnd) -> None:
        self._print()
        self._print(f"=== {end.game}  the end  you are seat {end.seat} ===")
        if end.view is not None:
            picture = render_text(end.game, end.view, viewer=end.seat)
            if picture:
                self._print(picture)
        self._print(f"match over: {json.dumps(end.result.get('ranks'))} (ranks by seat)")
