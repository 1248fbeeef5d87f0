"""Template tags for facts whose one source is the code: ``{% bot_runtime %}`` names what
uploaded bots run with (``arena.newbot.RUNTIME``, kept true to the runtime image by a test)."""

from __future__ import annotations

from django import template

from arena.newbot import RUNTIME

register = template.Library()


@register.simple_tag
def bot_runtime() -> str:
    return RUNTIME
