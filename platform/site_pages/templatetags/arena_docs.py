"""Template tags for facts whose one source is the code: ``{% bot_runtime %}`` names what
uploaded bots run with (the default language's ``runtime``, kept true to the runtime image by
a test);
``{% bot_languages %}`` and ``{% bot_sources %}`` the languages (``sandbox.languages``);
``value|as_json`` shows an option's value the way bots and the API spell it (``true``, not
``True``)."""

from __future__ import annotations

import json
from typing import Any

from django import template

from arena.bot_code import DEFAULT_LANGUAGE, LANGUAGES

register = template.Library()


@register.simple_tag
def bot_runtime() -> str:
    return LANGUAGES[DEFAULT_LANGUAGE].runtime


@register.simple_tag
def bot_languages() -> str:
    """The languages a bot may be written in, as people read them (``sandbox.languages``)."""
    return ", ".join(lang.name for lang in LANGUAGES.values())


@register.simple_tag
def bot_sources() -> str:
    """Each language's single-file upload: ``main.py, main.js, Main.java...``."""
    return ", ".join(lang.source for lang in LANGUAGES.values())


@register.filter
def as_json(value: Any) -> str:
    return json.dumps(value)
