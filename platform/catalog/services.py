"""Writing the catalog: copying the registry's games into the database."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F

from catalog.models import Game
from games import registry

log = logging.getLogger(__name__)


@transaction.atomic
def sync_games() -> list[Game]:
    """Create or update one :class:`Game` row per registered game; mark vanished ones inactive.

    A game package that fails to import is logged and skipped (its row, if any, is kept but
    marked inactive) so that one broken game never takes the site down.
    """
    synced: list[Game] = []
    seen: set[str] = set()
    for slug in registry.slugs():
        try:
            facts = registry.get_game(slug).describe()
            bot_names = list(registry.bots(slug))
        except Exception as exc:  # an unimportable game: report it, keep the others
            log.warning("game %s is not available: %s", slug, exc)
            continue
        row, _ = Game.objects.update_or_create(
            slug=slug,
            defaults={
                "name": facts["name"],
                "summary": facts.get("summary", ""),
                "min_players": facts["min_players"],
                "max_players": facts["max_players"],
                "options": facts["options"],
                "builtin_bots": bot_names,
                "is_active": True,
            },
        )
        synced.append(row)
        seen.add(slug)
    Game.objects.exclude(slug__in=seen).update(is_active=False)
    return synced


def count_finished_match(game_id: int) -> None:
    """One more finished match of the game (inside the transaction that records it)."""
    Game.objects.filter(pk=game_id).update(match_count=F("match_count") + 1)


def count_bots(game_id: int, delta: int) -> None:
    """``delta`` more (or fewer) bots of the game (inside the transaction that makes them)."""
    Game.objects.filter(pk=game_id).update(bot_count=F("bot_count") + delta)


def set_counters(counts: dict[int, tuple[int, int]]) -> None:
    """Every game's (bot_count, match_count) from a recount; games not named get zeros."""
    for game in Game.objects.all():
        bots, matches = counts.get(game.pk, (0, 0))
        Game.objects.filter(pk=game.pk).update(bot_count=bots, match_count=matches)
