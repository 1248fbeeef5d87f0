"""The ladder listens: a checked upload is qualified, a finished (or failed) match moves the ladder.

The dependency points ladder -> bots, matches: neither of them imports the ladder.
"""

from __future__ import annotations

from typing import Any

from bots.signals import version_checked
from django.db import transaction
from django.dispatch import receiver
from foundation import stamps
from foundation.task_sending import send_by_name
from matches.signals import match_failed, match_finished
from ratings.selectors import board_stamp_key

from ladder import error_streaks, results
from ladder.selectors import history_stamp_key
from ladder.sending import QUALIFY_TASK


@receiver(version_checked, dispatch_uid="ladder.qualify_upload")
def _qualify_upload(sender: Any, version: Any, **_: Any) -> None:
    # Sent once a worker's check of its code commits: a task makes the qualification match at
    # once (the next tick would too, should the message be lost: send_by_name logs it).
    send_by_name(QUALIFY_TASK, [version.pk])


#: Last of the match's listeners: see ``matches.signals`` for the order and why.
LADDER_ORDER = 300


@match_finished.listen(order=LADDER_ORDER, uid="ladder.match_finished")
def _finished(sender: Any, match: Any, seats: Any, **_: Any) -> None:
    error_streaks.count_match(match)  # first: a qualification then sees its version held
    results.match_finished(match)
    _history_changed(match, {s.bot_version.bot_id for s in seats})


@match_failed.listen(order=LADDER_ORDER, uid="ladder.match_failed")
def _failed(sender: Any, match: Any, **_: Any) -> None:
    error_streaks.count_match(match)
    results.match_finished(match)
    _history_changed(match, set(match.seats.values_list("bot_version__bot_id", flat=True)))


def _history_changed(match: Any, bot_ids: set[int]) -> None:
    # Inside the recording transaction: the bots' pages and the game's leaderboard draw
    # afresh once it commits.
    keys = [history_stamp_key(b) for b in bot_ids] + [board_stamp_key(match.game_id)]
    transaction.on_commit(lambda: _bump_all(keys))


def _bump_all(keys: list[str]) -> None:
    for key in keys:
        stamps.bump(key)
