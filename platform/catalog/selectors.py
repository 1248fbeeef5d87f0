"""Reading the catalog."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from arena.newbot import action_shapes, example_act_message
from catalog.markdown import markdown_file
from catalog.models import Game
from games import registry
from games.base import GameError


def active_games() -> QuerySet[Game]:
    return Game.objects.filter(is_active=True)


def games_with_counts() -> QuerySet[Game]:
    """Active games; ``bot_count`` and ``match_count`` (finished public matches) are counters kept
    as data, so the list costs the same whatever the history holds."""
    return active_games()


def leaderboard_position(ratings: QuerySet[Any], bot_id: int) -> int | None:
    """1-based place of ``bot_id`` in ``ratings`` (a leaderboard, sorted by ordinal, Elo, then
    bot name), or None when it is not there: one row and one indexed count."""
    row = ratings.filter(bot_id=bot_id).values("ordinal", "elo", "bot__name").first()
    if row is None:
        return None
    o, e, name = row["ordinal"], row["elo"], row["bot__name"]
    ahead = ratings.filter(
        Q(ordinal__gt=o) | Q(ordinal=o, elo__gt=e) | Q(ordinal=o, elo=e, bot__name__lt=name)
    )
    return ahead.count() + 1


def game_by_slug(slug: str) -> Game:
    """The game with ``slug`` or a 404."""
    return get_object_or_404(Game, slug=slug)


@dataclass(frozen=True)
class RulesPage:
    """What a game's rules page shows; every part is built from the repository's own files
    and code (RULES.md, the engine, the starter bot), never a copy of them."""

    rules_html: str
    example_act: str
    observation_fields: list[tuple[str, str, str]]
    action_examples: list[str]


def rules_page(slug: str) -> RulesPage:
    """The rules page of a registered game; a 404 for an unknown one or one without RULES.md."""
    try:
        path = registry.rules_path(slug)
    except GameError:
        raise Http404(f"No game {slug!r}") from None
    if path is None or not path.is_file():
        raise Http404(f"{slug} has no rules file")
    return RulesPage(markdown_file(path), *_built_examples(slug))


@cache
def _built_examples(slug: str) -> tuple[str, list[tuple[str, str, str]], list[str]]:
    """The examples the engine builds (deterministic, so computed once per process)."""
    act = example_act_message(slug)
    fields = [(key, _json_type(value), _short(value)) for key, value in act["observation"].items()]
    actions = [json.dumps(a) for a in action_shapes(slug)]
    return json.dumps(act, indent=1), fields, actions


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        inner = {_json_type(v) for v in value}
        return f"list of {inner.pop()}" if len(inner) == 1 else "list"
    return "object"


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
