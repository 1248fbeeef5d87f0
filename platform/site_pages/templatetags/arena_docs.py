"""Template tags for facts whose one source is the code: ``{% bot_runtime %}`` names what
uploaded bots run with (``arena.newbot.RUNTIME``, kept true to the runtime image by a test);
``value|as_json`` shows an option's value the way bots and the API spell it (``true``, not
``True``)."""

from __future__ import annotations

import json
from typing import Any

from django import template

from arena.newbot import RUNTIME

register = template.Library()


@register.simple_tag
def bot_runtime() -> str:
    return RUNTIME


@register.filter
def as_json(value: Any) -> str:
    return json.dumps(value)
