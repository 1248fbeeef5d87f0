"""Every model is in the admin, and its list and change pages render with real rows."""

from __future__ import annotations

import pytest
from bots.models import Bot, BotVersion
from catalog.models import Game
from competitions.models import League, Tournament
from django.contrib import admin
from django.contrib.auth import get_user_model
from matches.models import Match, MatchSeat
from matches.services import create_match, dispatch_match
from ratings.models import Rating

MODELS = [Game, Bot, BotVersion, Match, MatchSeat, Tournament, League, Rating]


def test_every_model_registered() -> None:
    for model in MODELS:
        assert admin.site.is_registered(model), model.__name__


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_pages_render(client, trnd, three_versions, model) -> None:
    match = dispatch_match(create_match(game=trnd, versions=three_versions, seed=1))
    Tournament.objects.create(game=trnd, name="T", organiser=three_versions[0].bot.owner)
    League.objects.create(game=trnd, name="L")
    staff = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(staff)
    meta = model._meta
    assert client.get(f"/admin/{meta.app_label}/{meta.model_name}/").status_code == 200
    obj = model.objects.first() if model is not Match else match
    r = client.get(f"/admin/{meta.app_label}/{meta.model_name}/{obj.pk}/change/")
    assert r.status_code == 200
