"""What a bot author meets on the ladder: pinning a qualified version lifts a suspension (the
service, the API and the page), versions read "Playing" and "Qualified", the challenge form's
opponent picker, one text about zips, and the comparison of two versions."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import create_bot, upload_version
from django.test import Client
from django.utils import timezone
from ladder import services
from ladder.models import LadderEntry
from ladder.pinning import pin
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.site_fixtures import BOT_SOURCE

from .test_ladder import flaky_source


@pytest.fixture(autouse=True)
def _ladder_settings(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.ARENA_LADDER_BUDGET = 2
    settings.ARENA_LADDER_PLACEMENT = 2
    settings.ARENA_LADDER_SUSPEND_AFTER = 2


def api_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def suspended_with_two_versions(bot: Bot) -> tuple[BotVersion, BotVersion, LadderEntry]:
    """``bot`` with two qualified versions, suspended for v2's faults (the rows as the ladder
    leaves them; the whole path is test_the_ladder_suspends_then_a_pin_brings_it_back)."""
    v1 = bot.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    v2 = bot.versions.create(number=2, builtin_name="greedy", status=VersionStatus.ACTIVE)
    entry = LadderEntry.objects.create(
        bot=bot,
        game=bot.game,
        fault_streak=2,
        suspended_at=timezone.now(),
        suspended_version=v2,
        suspended_reason="Suspended from the ladder: 2 ladder matches in a row ended in a fault.",
        ladder_matches=7,
    )
    return v1, v2, entry


def test_the_ladder_suspends_then_a_pin_brings_it_back(
    user: Any, user_bot: Bot, builtin_versions: Any, rounds: Any, inline: Any, caplog: Any
) -> None:
    v1 = inline(upload_version, bot=user_bot, filename="main.py", data=BOT_SOURCE)
    rounds(user_bot.game, 3)  # v1's placement
    marker = Match.objects.create(game=user_bot.game, status=MatchStatus.ERROR, error="marker")
    v2 = inline(upload_version, bot=user_bot, filename="main.py", data=flaky_source(marker.pk + 1))
    v2.refresh_from_db()
    assert v2.status == VersionStatus.ACTIVE, v2.status_reason
    entry = LadderEntry.objects.get(bot=user_bot)
    for _ in range(8):
        inline(services.tick, user_bot.game, rng=random.Random(4))
        entry.refresh_from_db()
        if entry.is_suspended:
            break
    assert entry.is_suspended and entry.suspended_version == v2
    assert "Pin another qualified version" in entry.suspended_reason
    # Pinning the version that faulted changes nothing.
    again = pin(bot=user_bot, by=user, version=v2)
    entry.refresh_from_db()
    assert again.still_suspended and not again.reinstated and entry.is_suspended
    # Pinning v1 lifts it as a qualified upload does: placement owed, streak 0, logged.
    with caplog.at_level(logging.INFO, logger="ladder.entries"):
        result = pin(bot=user_bot, by=user, version=v1)
    entry.refresh_from_db()
    assert result.reinstated and result.playing == v1
    assert not entry.is_suspended and entry.fault_streak == 0 and entry.placement_owed == 2
    assert entry.suspended_version is None and entry.suspended_reason == ""
    assert "back on the ladder: v1 pinned by its owner alice" in caplog.text
    # ... and the matchmaker seats it again, with v1.
    report = inline(services.tick, user_bot.game, rng=random.Random(5))
    seated = {
        s.bot_version_id
        for m in Match.objects.filter(pk__in=report.ladder_matches)
        for s in m.seats.all()
    }
    assert v1.pk in seated and v2.pk not in seated


def test_a_legacy_suspension_without_its_version_is_lifted_by_any_pin(user, user_bot) -> None:
    v1, _, entry = suspended_with_two_versions(user_bot)
    entry.suspended_version = None  # suspended before the version was kept
    entry.save()
    assert pin(bot=user_bot, by=user, version=v1).reinstated


def test_unpinning_back_to_the_faulty_version_keeps_the_suspension(user, user_bot) -> None:
    _, v2, entry = suspended_with_two_versions(user_bot)
    result = pin(bot=user_bot, by=user, version=None)  # newest qualified: v2, the faulty one
    entry.refresh_from_db()
    assert result.playing == v2 and result.still_suspended and entry.is_suspended


def test_pin_through_the_api_lifts_the_suspension(user, other_user, user_bot) -> None:
    _, _, entry = suspended_with_two_versions(user_bot)
    url = f"/api/bots/{user_bot.pk}/pin/"
    assert api_for(other_user).post(url, {"version": 1}, format="json").status_code == 403
    same = api_for(user).post(url, {"version": 2}, format="json")
    assert same.status_code == 200
    assert same.json() == {"version": 2, "playing": 2, "reinstated": False, "suspended": True}
    ok = api_for(user).post(url, {"version": 1}, format="json")
    assert ok.json() == {"version": 1, "playing": 1, "reinstated": True, "suspended": False}
    entry.refresh_from_db()
    assert not entry.is_suspended and entry.placement_owed == 2
    ladder = api_for(user).get(f"/api/bots/{user_bot.pk}/ladder/").json()
    assert ladder["suspended"] is False and ladder["in_placement"] is True


def test_pin_from_the_page_lifts_the_suspension_and_says_so(user, other_user, user_bot) -> None:
    suspended_with_two_versions(user_bot)
    client = Client()
    client.force_login(user)
    page = client.get(f"/bots/{user_bot.pk}/").content.decode()
    assert "Pin v1 below to bring it back now" in page
    statuses = _statuses(page)
    assert statuses == ["Playing", "Qualified"]  # v2 (newest), v1
    after = client.post(f"/bots/{user_bot.pk}/pin/", {"version": 1}, follow=True)
    text = after.content.decode()
    assert "now plays with v1 and is back on the ladder" in text
    assert "Suspended from the ladder" not in text
    assert _statuses(text) == ["Qualified", "Playing"]
    # Another's bot: refused, said on the page.
    stranger = Client()
    stranger.force_login(other_user)
    refused = stranger.post(f"/bots/{user_bot.pk}/pin/", {"version": 2}, follow=True)
    assert "Only the bot&#x27;s owner may choose its version." in refused.content.decode()


def _statuses(page: str) -> list[str]:
    import re

    return re.findall(r'data-test="version-status">([^<]+)<', page)


def test_my_bots_reads_playing_and_qualified(user, user_bot) -> None:
    v1 = user_bot.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    user_bot.versions.create(number=2, builtin_name="greedy", status=VersionStatus.ACTIVE)
    user_bot.versions.create(number=3, builtin_name="greedy", status=VersionStatus.FAILED)
    client = Client()
    client.force_login(user)
    assert _statuses(client.get("/bots/mine/").content.decode()) == [
        "Failed",
        "Playing",
        "Qualified",
    ]
    user_bot.pinned_version = v1
    user_bot.save()
    assert _statuses(client.get("/bots/mine/").content.decode()) == [
        "Failed",
        "Qualified",
        "Playing",
    ]
    # The API keeps the stored status.
    stored = api_for(user).get(f"/api/bots/{user_bot.pk}/versions/").json()
    assert [v["status"] for v in stored] == ["failed", "active", "active"]


def test_the_challenge_picker_is_checkboxes_with_the_tables_limit(
    user, other_user, user_bot, builtin_versions, trnd
) -> None:
    user_bot.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    LadderEntry.objects.create(bot=user_bot, game=trnd)
    theirs = create_bot(owner=other_user, game=trnd, name="rival")
    theirs.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    for v in builtin_versions:
        LadderEntry.objects.get_or_create(bot=v.bot, game=trnd)
    client = Client()
    client.force_login(other_user)
    page = client.get(f"/bots/{user_bot.pk}/").content.decode()
    picker = page.split('<fieldset class="picker"', 1)[1].split("</fieldset>", 1)[0]
    # trnd: 3 to 5 players, so besides the two bots 1 to 3 more.
    assert 'data-max="3" data-min="1"' in picker and "Also seat 1 to 3 more bots" in picker
    assert picker.count('type="checkbox" name="also"') == len(builtin_versions)
    assert "<select" not in picker and "multiple" not in picker
    assert "site_pages/challenge_picker.js" in page
    # Past the table's size: a clear refusal, no match.
    extra = [create_bot(owner=user, game=trnd, name=f"e{i}") for i in range(3)]
    for b in extra:
        b.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    also = [v.bot.pk for v in builtin_versions] + [b.pk for b in extra]
    resp = client.post(
        f"/bots/{user_bot.pk}/challenge/", {"with": theirs.pk, "also": also}, follow=True
    )
    assert "choose 2 to 4 opponents, not 6" in resp.content.decode()
    assert not Match.objects.exists()


def test_upload_pages_say_the_same_about_zips(user, user_bot) -> None:
    from bots.forms import CODE_HELP, ZIP_LAYOUT

    client = Client()
    client.force_login(user)
    assert ZIP_LAYOUT in CODE_HELP and "inside one folder" in ZIP_LAYOUT
    for url in ("/bots/new/", f"/bots/{user_bot.pk}/upload/"):
        page = client.get(url).content.decode()
        box = page.split('data-test="zip-layout"', 1)[1].split("</", 1)[0]
        assert ZIP_LAYOUT.replace("'", "&#x27;") in box, url
        assert page.count("inside one folder") == 2, url  # the side box and the field's help


def test_compare_two_versions_page_and_api(user, other_user, trnd, three_versions) -> None:
    bot = create_bot(owner=user, game=trnd, name="mine")
    v1 = bot.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    v2 = bot.versions.create(number=2, builtin_name="greedy", status=VersionStatus.ACTIVE)
    rng = random.Random(2)
    for k in range(8):
        mine = v1 if k < 4 else v2
        played = dispatch_match(
            create_match(game=trnd, versions=[mine, *three_versions[:2]], seed=rng.randrange(99))
        )
        assert played.status == MatchStatus.FINISHED
    client = Client()
    client.force_login(user)
    page = client.get(f"/bots/{bot.pk}/compare/?a=1&b=2")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-test="opponents"' in text and "<polyline" in text
    assert 'data-test="splits-v1"' in text and 'data-test="splits-v2"' in text
    api = api_for(user).get(f"/api/bots/{bot.pk}/compare/?a=1&b=2").json()
    assert api["a"]["version"] == 1 and api["b"]["version"] == 2
    assert api["a"]["period"]["matches"] == api["b"]["period"]["matches"] == 4
    assert api["a"]["period"]["points"][0] == [0, 1500.0]
    assert [len(api["a"]["period"]["points"]), api["a"]["period"]["points"][-1][0]] == [5, 4]
    rows = {r["name"]: r for r in api["opponents"]}
    assert set(rows) == {three_versions[0].bot.name, three_versions[1].bot.name}
    for r in rows.values():
        assert r["a"]["met"] == r["b"]["met"] == 4
        assert r["a"]["met"] == r["a"]["ahead"] + r["a"]["level"] + r["a"]["behind"]
    assert sum(s["played"] for s in api["a"]["splits"]["by_seat"]) == 4
    # Its owner's only; bad choices are a 400 with why.
    assert api_for(other_user).get(f"/api/bots/{bot.pk}/compare/").status_code == 403
    stranger = Client()
    stranger.force_login(other_user)
    assert stranger.get(f"/bots/{bot.pk}/compare/").status_code == 403
    same = client.get(f"/bots/{bot.pk}/compare/?a=2&b=2")
    assert same.status_code == 400 and "two different versions" in same.content.decode()
    bad = api_for(user).get(f"/api/bots/{bot.pk}/compare/?a=9")
    assert bad.status_code == 400 and "no version 9" in str(bad.json())
    # The public stats of the bot: all versions together.
    splits = Client().get(f"/api/bots/{bot.pk}/stats/").json()
    assert sum(s["played"] for s in splits["by_size"]) == 8
    assert [s["key"] for s in splits["by_size"]] == [3]


def test_schema_lists_the_stats_endpoints() -> None:
    schema = Client().get("/api/schema/").content.decode()
    assert "/api/bots/{id}/stats/" in schema and "/api/bots/{id}/compare/" in schema
    assert "reinstated" in schema
