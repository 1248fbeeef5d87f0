"""The listeners of a match's end run in an explicit order (``matches.signals``), not in the
order the apps load: ratings, then tournaments and leagues, then the ladder."""

from __future__ import annotations

from typing import Any

import pytest
from competitions.tournaments.services import create_tournament, start_tournament
from django.core.exceptions import ImproperlyConfigured
from matches.signals import OrderedHook, match_failed, match_finished
from ratings.models import RatingChange


def test_the_listeners_order_is_ratings_competitions_ladder() -> None:
    assert [uid for _, uid in match_finished.listeners()] == [
        "ratings.rate_match",
        "competitions.match_finished",
        "ladder.match_finished",
    ]
    assert [uid for _, uid in match_failed.listeners()] == [
        "competitions.match_failed",
        "ladder.match_failed",
    ]


def test_a_hook_calls_by_order_not_by_connection() -> None:
    hook, calls = OrderedHook("test"), []
    hook.connect(lambda sender, **kw: calls.append(("late", kw)), order=20, uid="late")
    hook.connect(lambda sender, **kw: calls.append(("early", kw)), order=10, uid="early")
    hook.send(sender=None, x=1)
    assert calls == [("early", {"x": 1}), ("late", {"x": 1})]
    # Connected again under the same uid (AppConfig.ready twice): replaced, not doubled.
    hook.connect(lambda sender, **kw: calls.append(("early again", kw)), order=10, uid="early")
    calls.clear()
    hook.send(sender=None)
    assert [name for name, _ in calls] == ["early again", "late"]
    assert hook.disconnect("late") and not hook.disconnect("late")


def test_two_listeners_may_not_share_a_place() -> None:
    hook = OrderedHook("test")
    hook.connect(lambda sender, **kw: None, order=10, uid="a")
    with pytest.raises(ImproperlyConfigured, match="b and a both ask for order 10"):
        hook.connect(lambda sender, **kw: None, order=10, uid="b")


def test_a_tournament_counts_a_match_after_its_ratings_moved(
    trnd: Any, three_versions: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    """What the competitions' listener sees when it runs: the ratings of the very match
    already changed in the same transaction (it would see none were the order to flip)."""
    import competitions.receivers as receivers

    seen: list[int] = []
    real = receivers.tournament_match_ended

    def spy(link: Any, seats: Any) -> None:
        seen.append(RatingChange.objects.filter(match_id=link.match_id).count())
        real(link, seats)

    monkeypatch.setattr(receivers, "tournament_match_ended", spy)
    t = create_tournament(
        organiser=three_versions[0].bot.owner,
        game=trnd,
        name="Cup",
        entrants=three_versions,
        players_per_match=3,
    )
    with django_capture_on_commit_callbacks(execute=True):
        start_tournament(t)
    assert seen == [3]  # one match of three seats, each seat's change already written
