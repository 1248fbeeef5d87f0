"""``{% tournament_results t %}``: the results section of a tournament's page (crosstable,
bracket or tie-breaks, the winner, exports and the embed code), drawn from
``competitions.tournaments.results`` and cached in the template under the page's stamp."""

from __future__ import annotations

from functools import partial
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape

from arena.formats import Format, get_format
from competitions.models import Tournament, Visibility
from competitions.tournaments.results.data import results_stamp
from competitions.tournaments.results.section import section_context

register = template.Library()


@register.filter
def format_of(name: str) -> Format:
    """``{{ t.format|format_of }}``: the format itself, whose ``ranked_by`` and ``order_note``
    the templates show (``arena.formats.FORMATS``)."""
    return get_format(name)


@register.inclusion_tag("competitions/_results.html", takes_context=True)
def tournament_results(context: template.Context, t: Tournament) -> dict[str, Any]:
    request = context.get("request")
    embed = reverse("competitions:tournament_embed", args=[t.pk])
    embed_url = request.build_absolute_uri(embed) if request is not None else embed
    return {
        "t": t,
        # The page's own stamp of the tournament's progress when it has one (no query).
        "stamp": results_stamp(t, context.get("standings_stamp")),
        # Called only when the section is drawn (a miss of the template's cache).
        "section": partial(section_context, t),
        "embed_url": embed_url,
        "embed_code": (
            f'<iframe src="{embed_url}" title="{escape(t.name)}: standings" width="100%" '
            'height="420" loading="lazy"></iframe>'
        ),
        "private": t.visibility == Visibility.PRIVATE,
    }
