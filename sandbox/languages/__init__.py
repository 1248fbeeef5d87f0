"""The languages a bot may be written in: one file each in this package (``python.py``,
``cpp.py``...), each making one :class:`~sandbox.languages.base.Language` called ``LANGUAGE``
over the shared pieces of ``base.py``. This registry is the one place that the upload check,
the build step, the sandbox backends, the site, the API, the command line and the docs read.

Versions are Debian 12's packages, which the runtime images are built from
(deploy/build-runtime-image.sh). Adding a language is one file here (its entry, its quirks,
its own test programs), its starter bot (arena/starters/) and its image
(docs/sandbox.md, "Adding a language"); tests/sandbox/test_languages.py fails until every
part is there.
"""

from __future__ import annotations

import importlib
import pkgutil

from sandbox.languages.base import BINARY, Language

__all__ = [
    "BINARY",
    "DEFAULT",
    "LANGUAGES",
    "Language",
    "UnknownLanguage",
    "get_language",
    "recognise",
]

#: The modules of this package that are no language.
_NOT_LANGUAGES = frozenset({"base", "self_test"})


def _discover() -> dict[str, Language]:
    """Every language file's ``LANGUAGE``, in their ``order``: a new file is a new language."""
    found: list[Language] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name in _NOT_LANGUAGES or info.name.startswith("_"):
            continue
        # Imported by name: the package finds its languages, nobody lists them.
        module = importlib.import_module(f"{__name__}.{info.name}")
        lang = getattr(module, "LANGUAGE", None)
        if not isinstance(lang, Language):
            raise TypeError(f"sandbox/languages/{info.name}.py makes no LANGUAGE")
        if lang.key != info.name:
            raise ValueError(f"sandbox/languages/{info.name}.py makes the language {lang.key!r}")
        found.append(lang)
    return {lang.key: lang for lang in sorted(found, key=lambda lang: lang.order)}


LANGUAGES: dict[str, Language] = _discover()

#: What every bot was before languages: the key of a bot whose language is not said.
DEFAULT = "python"


class UnknownLanguage(ValueError):
    """A language key that no entry has; the message lists the ones there are."""


def get_language(key: str | None) -> Language:
    """The language ``key`` (None or "": Python, what every bot was before languages)."""
    if not key:
        return LANGUAGES[DEFAULT]
    try:
        return LANGUAGES[key]
    except KeyError:
        raise UnknownLanguage(
            f"unknown language {key!r}; choose one of {', '.join(LANGUAGES)}"
        ) from None


def recognise(files: list[str] | tuple[str, ...]) -> list[Language]:
    """The languages a bot folder of ``files`` (relative POSIX paths) may be: marked by a
    build file at its top first, else by holding the language's entry source (``main.py``,
    ``Main.java``...) at its top. Usually one; several when the bundle is ambiguous (the
    uploader then says which), none when it is no bot."""
    top = {f for f in files if "/" not in f}
    marked = [lang for lang in LANGUAGES.values() if any(m in top for m in lang.markers)]
    if marked:
        return marked
    return [lang for lang in LANGUAGES.values() if lang.source in top]
