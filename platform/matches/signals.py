"""What a match announces. ``matches`` owns a match's life; whoever cares about results
(ratings, tournaments, leagues, the ladder) listens here, so this app imports none of them.

Both hooks are called inside the transaction that records the match, after its row is locked:
a listener's writes commit or roll back with the result itself, and a match is announced at
most once (a second recording of the same match finds it done and sends nothing).

Listeners run in the order of the ``order`` each one is connected with (lowest first), never
in the order the apps happen to load. Today's listeners, in order:

    100  ratings.rate_match             the bots' Rating rows (locked in bot order), RatingChange
    200  competitions.match_finished    the tournament's row, its entries / the league's table
         competitions.match_failed
    300  ladder.match_finished          the version's holds, qualification, ladder entries
         ladder.match_failed

Ratings come first and the competitions' tables next, so that every recording takes its locks
in the same order (no two recordings wait for each other in a circle); the ladder, which locks
only its own rows and the versions it holds, last. Two listeners of one hook may not share an
order (``tests/matches/test_match_hooks.py`` holds the order above).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured

Listener = Callable[..., Any]


class OrderedHook:
    """A signal whose listeners run in an explicit order: ``connect(fn, order=, uid=)``, then
    ``send(sender=..., **kwargs)`` calls ``fn(sender=sender, **kwargs)`` for each, lowest order
    first. Connecting the same ``uid`` again replaces it (``AppConfig.ready`` may run twice in
    tests); an exception in a listener propagates, as Django's ``Signal.send`` does."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._listeners: dict[str, tuple[int, Listener]] = {}
        self._lock = threading.Lock()

    def connect(self, listener: Listener, *, order: int, uid: str) -> None:
        with self._lock:
            for other, (taken, _) in self._listeners.items():
                if taken == order and other != uid:
                    raise ImproperlyConfigured(
                        f"{self.name}: {uid} and {other} both ask for order {order}; "
                        "give each listener its own place."
                    )
            self._listeners[uid] = (order, listener)

    def disconnect(self, uid: str) -> bool:
        with self._lock:
            return self._listeners.pop(uid, None) is not None

    def listen(self, *, order: int, uid: str) -> Callable[[Listener], Listener]:
        """Decorator form of :meth:`connect`."""

        def register(listener: Listener) -> Listener:
            self.connect(listener, order=order, uid=uid)
            return listener

        return register

    def listeners(self) -> list[tuple[int, str]]:
        """``(order, uid)`` of every listener, in the order they run."""
        with self._lock:
            return sorted((order, uid) for uid, (order, _) in self._listeners.items())

    def send(self, sender: Any, **kwargs: Any) -> None:
        with self._lock:
            ordered = sorted(self._listeners.values(), key=lambda item: item[0])
        for _, listener in ordered:
            listener(sender=sender, **kwargs)


#: ``sender=Match, match=<Match>, seats=[<MatchSeat>, ...]`` (seat order, results filled in).
match_finished = OrderedHook("match_finished")

#: ``sender=Match, match=<Match>``: the platform failed the match (``status == "error"``).
match_failed = OrderedHook("match_failed")
