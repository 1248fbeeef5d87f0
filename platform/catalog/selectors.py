"""Reading the catalog."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from catalog.models import Game


def active_games() -> QuerySet[Game]:
    return Game.objects.filter(is_active=True)


def game_by_slug(slug: str) -> Game:
    """The game with ``slug`` or a 404."""
    return get_object_or_404(Game, slug=slug)
