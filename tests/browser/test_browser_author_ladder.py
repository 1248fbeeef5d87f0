"""A bot author on the ladder, in a real browser: a suspended bot comes back when its owner
pins another qualified version, the versions read "Playing" and "Qualified", a challenge's
opponents are ticked (no Ctrl-click) up to the table's size, and two versions are compared."""

from __future__ import annotations

from typing import Any

from bots.models import Bot, VersionStatus
from bots.services import create_bot, ensure_builtin_bots
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from django.utils import timezone
from ladder.models import LadderEntry
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match

from .conftest import shoot

PASSWORD = "Tr1cky-meeple-pw"


def _log_in(page: Any, username: str, then: str) -> None:
    page.goto(f"/accounts/login/?next={then}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{then}")


def _statuses(page: Any) -> list[str]:
    return page.locator('table.versions [data-test="version-status"]').all_inner_texts()


def _suspended_bot() -> Bot:
    """alice's trnd bot: v1 and v2 qualified, suspended for v2's faults."""
    game = next(g for g in sync_games() if g.slug == "trnd")
    alice = get_user_model().objects.create_user("alice", password=PASSWORD)
    bot = create_bot(owner=alice, game=game, name="comeback")
    bot.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    v2 = bot.versions.create(number=2, builtin_name="greedy", status=VersionStatus.ACTIVE)
    LadderEntry.objects.create(
        bot=bot,
        game=game,
        fault_streak=3,
        suspended_at=timezone.now(),
        suspended_version=v2,
        suspended_reason="Suspended from the ladder: 3 ladder matches in a row ended in a fault.",
    )
    return bot


def test_pinning_a_qualified_version_lifts_the_suspension(page: Any) -> None:
    bot = _suspended_bot()
    _log_in(page, "alice", f"/bots/{bot.pk}/")
    heading = page.get_by_role("heading", level=1)
    assert "suspended" in heading.inner_text()
    assert "Pin v1 below to bring it back now" in page.locator(".ladder-status").inner_text()
    assert _statuses(page) == ["Playing", "Qualified"]  # v2, v1
    shoot(page, "bot-suspended")

    page.get_by_role("button", name="Pin v1").click()
    page.wait_for_url(f"**/bots/{bot.pk}/")
    message = page.locator(".messages").inner_text()
    assert "comeback now plays with v1 and is back on the ladder" in message
    assert "suspended" not in heading.inner_text() and "in placement" in heading.inner_text()
    assert _statuses(page) == ["Qualified", "Playing"]
    assert page.get_by_role("button", name="Unpin v1").is_visible()
    entry = LadderEntry.objects.get(bot=bot)
    assert entry.suspended_at is None and entry.placement_owed > 0
    shoot(page, "bot-reinstated")


def test_challenge_opponents_are_ticked_up_to_the_tables_size(page: Any) -> None:
    bot = _suspended_bot()
    LadderEntry.objects.filter(bot=bot).update(suspended_at=None)
    game = bot.game
    ensure_builtin_bots(game)
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    mine = create_bot(owner=bob, game=game, name="bobs-bot")
    mine.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    carol = get_user_model().objects.create_user("carol")
    for name in ("c1", "c2"):
        other = create_bot(owner=carol, game=game, name=name)
        other.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    for b in Bot.objects.filter(game=game).exclude(pk=mine.pk):
        LadderEntry.objects.get_or_create(bot=b, game=game)

    _log_in(page, "bob", f"/bots/{bot.pk}/")
    picker = page.get_by_role("group", name="Also seat 1 to 3 more bots")
    boxes = picker.get_by_role("checkbox")
    assert boxes.count() >= 4
    count = picker.locator("[data-picker-count]")
    assert count.inner_text() == "0 of 3 chosen (choose at least 1)."
    for name in ("c1", "c2", "random"):
        picker.get_by_role("checkbox", name=name).check()
    assert count.inner_text().startswith("3 of 3 chosen: the table is full")
    unticked = [boxes.nth(i) for i in range(boxes.count()) if not boxes.nth(i).is_checked()]
    assert unticked and all(b.is_disabled() for b in unticked)
    picker.get_by_role("checkbox", name="c2").uncheck()
    assert all(b.is_enabled() for b in unticked)
    assert count.inner_text() == "2 of 3 chosen."
    shoot(page, "challenge-picker")

    page.get_by_role("button", name="Challenge (friendly, unrated)").click()
    page.wait_for_url("**/matches/*/")
    match = Match.objects.get(kind="challenge")
    seated = set(match.seats.values_list("bot_version__bot__name", flat=True))
    assert seated == {"bobs-bot", "comeback", "c1", "random"}


def test_compare_two_versions(page: Any) -> None:
    bot = _suspended_bot()
    others = [b.latest_version() for b in ensure_builtin_bots(bot.game)]
    v1, v2 = bot.versions.get(number=1), bot.versions.get(number=2)
    for k in range(6):
        played = dispatch_match(
            create_match(game=bot.game, versions=[v1 if k < 3 else v2, *others[:2]], seed=k)
        )
        assert played.status == MatchStatus.FINISHED
    _log_in(page, "alice", f"/bots/{bot.pk}/")
    assert page.locator('[data-test="by-seat"]').is_visible()
    by_size = page.locator('[data-test="by-size"] tbody tr').all_inner_texts()
    assert len(by_size) == 1 and by_size[0].split()[:2] == ["3", "6"]  # 6 matches at 3 seats
    shoot(page, "bot-stats")
    page.get_by_role("button", name="Compare two versions").click()
    page.wait_for_url(f"**/bots/{bot.pk}/compare/?a=1&b=2")
    periods = page.locator('[data-test="periods"] tbody tr')
    assert periods.count() == 2 and all("3" in t for t in periods.all_inner_texts())
    assert page.locator('[data-test="opponents"] tbody tr').count() == 2
    assert page.locator("svg.rating-chart polyline").count() == 2
    shoot(page, "compare-versions")
