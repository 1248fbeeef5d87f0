"""Small bots in each language for the tests: each language's own programs
(``sandbox/languages/<key>.py``: ``hello`` answers ``start`` with ready and every ``act`` with
its first legal action, and exits at ``end``; ``broken`` fails its build or check), keyed as
the tests have always used them. The starter kits (arena/starters/) are fuller; these keep the
tests independent of them. The sandbox runtime's language (Python) has the hostile suite's
(tests/sandbox/bots/) and is left out.
"""

from __future__ import annotations

from sandbox.languages import LANGUAGES

_OTHERS = [lang for lang in LANGUAGES.values() if not lang.sandbox_runtime]

#: language key -> (single-file name, source)
BOTS: dict[str, tuple[str, bytes]] = {lang.key: (lang.source, lang.hello) for lang in _OTHERS}

#: Code that does not compile (or pass its check), per language.
BROKEN: dict[str, tuple[str, bytes]] = {lang.key: (lang.source, lang.broken) for lang in _OTHERS}
