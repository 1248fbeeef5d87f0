"""The human channel over Django's cache: the worker playing a match writes each pending
decision of a person's seat into the cache and waits for the answer the web page writes back.

Keys, per match and seat (``play:<match>:<seat>:...``):

* ``req``: the pending decision (turn, labels, observation, SVG and text pictures, deadline),
  written by the worker, deleted once answered;
* ``ans:<turn>``: the chosen index, added by the web (first answer wins);
* ``tab``: the token of the one browser tab that holds the seat (expires ``LEAVE`` seconds after
  the tab's last poll); ``beat``: when that tab last polled;
* ``resign``: the person resigned; ``done``: the end (the result, and the pictures of the last
  position for the seat), written by the worker when the match is over.

The cache must be shared by the web and worker processes: the configured ``play`` cache, else
the default one unless it is per-process (local memory, dummy), in which case a file cache in
``DATA_DIR/play-cache`` (one machine; configure Redis for more).
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.filebased import FileBasedCache

from arena.contract import MatchSpec
from arena.human_seat import HumanEnd, HumanGone, HumanRequest, HumanTime
from arena.pictures import action_targets, render_svg, render_text

#: How often the worker looks for an answer.
POLL_S = 0.2
#: Keys live at most this long (a match that long is over anyway).
KEY_TTL_S = 6 * 3600
_PER_PROCESS = ("LocMemCache", "DummyCache")


def move_s() -> int:
    return int(getattr(settings, "ARENA_HUMAN_MOVE_S", 300))


def leave_s() -> int:
    return int(getattr(settings, "ARENA_HUMAN_LEAVE_S", 30))


def play_cache() -> BaseCache:
    """A cache that the web and the worker processes share (see the module docstring)."""
    if "play" in settings.CACHES:
        return caches["play"]
    backend = str(settings.CACHES.get("default", {}).get("BACKEND", ""))
    if backend.rsplit(".", 1)[-1] in _PER_PROCESS:
        return _file_cache(str(Path(settings.DATA_DIR) / "play-cache"))
    return caches["default"]


@cache
def _file_cache(folder: str) -> BaseCache:
    return FileBasedCache(folder, {"TIMEOUT": KEY_TTL_S, "OPTIONS": {"MAX_ENTRIES": 100_000}})


def key(match_id: int | str, seat: int, name: str) -> str:
    return f"play:{match_id}:{seat}:{name}"


class CacheChannel:
    """What the worker uses (``arena.human_seat.HumanChannel``)."""

    def __init__(self, store: BaseCache | None = None, *, leave: float | None = None) -> None:
        self.store = store or play_cache()
        self.leave = leave_s() if leave is None else leave
        self.time = HumanTime(move_ms=move_s() * 1000)

    def ask(self, request: HumanRequest) -> int | None:
        c, m, s = self.store, request.match_id, request.seat
        pictures = _pictures(request.game, request.view, request.legal, request.seat)
        c.set(
            key(m, s, "req"),
            {
                "turn": request.turn,
                "labels": request.labels,
                "observation": request.observation,
                "deadline": request.deadline,
                **pictures,
            },
            KEY_TTL_S,
        )
        asked = time.time()
        try:
            while True:
                answer = c.get(key(m, s, f"ans:{request.turn}"))
                if isinstance(answer, int) and 0 <= answer < len(request.legal):
                    return answer
                if c.get(key(m, s, "resign")):
                    raise HumanGone("the player resigned")
                now = time.time()
                if now >= request.deadline:
                    return None
                beat = c.get(key(m, s, "beat")) or 0.0
                if now - max(float(beat), asked) > self.leave:
                    raise HumanGone(
                        f"the player left the page (no sign of it for {self.leave:g} s)"
                    )
                time.sleep(POLL_S)
        finally:
            c.delete(key(m, s, "req"))

    def finish(self, end: HumanEnd) -> None:
        """Keep the end for the page: the result and the last position's pictures (the final
        clear-out, the scores), drawn for the seat as every decision's were."""
        pictures = _pictures(end.game, end.view, [], end.seat)
        done = {"result": end.result, "svg": pictures["svg"], "text": pictures["text"]}
        self.store.set(key(end.match_id, end.seat, "done"), done, KEY_TTL_S)


def _pictures(
    game: str, view: dict[str, Any] | None, legal: list[Any], seat: int
) -> dict[str, Any]:
    """The pictures as ``seat`` knows the position (others' hands as backs with counts: the
    same picture on every poll, whatever ``view``'s redrawn hidden cards are)."""
    if view is None:
        return {"svg": None, "text": None, "targets": None}
    try:
        svg = render_svg(game, view, viewer=seat)
    except Exception:  # a picture is a nicety: the labels and the observation still play
        svg = None
    try:  # what each action is about on the picture: a click there chooses it
        targets = action_targets(game, view, legal) if svg else None
    except Exception:
        targets = None
    try:
        text = render_text(game, view, viewer=seat)
    except Exception:
        text = None
    return {"svg": svg, "text": text, "targets": targets}


def channel_for_spec(spec: MatchSpec) -> tuple[CacheChannel, HumanTime]:
    channel = CacheChannel()
    return channel, channel.time
