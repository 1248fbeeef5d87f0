"""Which language an uploaded bot is written in: recognised from its checked files
(``sandbox.languages.recognise``), or chosen by its uploader where the files allow several.

The upload page, the API and the worker's check ask the same question here, so that a bundle
the site accepted as C++ is built as C++.
"""

from __future__ import annotations

from sandbox.bundle import BOT_ENTRIES, Bundle, check_bundle
from sandbox.bundle_limits import MAX_UPLOAD_BYTES, BundleError
from sandbox.languages import LANGUAGES, Language, UnknownLanguage, get_language

ENTRIES = BOT_ENTRIES


def bundle_language(bundle: Bundle, chosen: str | None = None) -> Language:
    """The language of ``bundle``: the one its files allow, or ``chosen`` among several.
    Raises :class:`BundleError` (for the uploader) when the files show no bot, when
    ``chosen`` is not among what they allow, or when they allow several and none is chosen."""
    candidates = candidates_of(bundle.files)
    if chosen:
        try:
            lang = get_language(chosen)
        except UnknownLanguage as exc:
            raise BundleError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
        if lang not in candidates:
            if not candidates:
                _no_entry_beside_a_marker(bundle.files)
            found = ", ".join(c.key for c in candidates) or "none"
            raise BundleError(
                f"The files are no {lang.name} bot (it needs {_needs(lang)} at the top); "
                f"they look like: {found}."
            )
        return lang
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        _no_entry_beside_a_marker(bundle.files)
        raise BundleError(
            "The files hold no bot: none of "
            + ", ".join(dict.fromkeys(ENTRIES))
            + " is at the top (nor inside a single top-level folder)."
        )
    raise BundleError(
        "The files could be a bot in "
        + " or ".join(f"{c.name} ({c.key})" for c in candidates)
        + ": choose its language."
    )


def candidates_of(files: tuple[str, ...] | list[str]) -> list[Language]:
    """The languages whose bot the files (relative to the bot's top) may be: the entry source
    at the top (``main.py``), or a build file of a language whose build finds its own sources
    (``Cargo.toml``, ``go.mod``). A marker alone does not make an interpreted language: a
    ``package.json`` beside a ``main.py`` and no ``main.js`` is a Python bot."""
    top = {f for f in files if "/" not in f}
    return [
        lang
        for lang in LANGUAGES.values()
        if lang.source in top or (lang.compiled and any(m in top for m in lang.markers))
    ]


def _no_entry_beside_a_marker(files: tuple[str, ...] | list[str]) -> None:
    """A build file of an interpreted language without its entry (a Node package whose
    ``main`` is ``index.js``): say what runs, rather than accept a bot whose check must fail."""
    top = {f for f in files if "/" not in f}
    for lang in LANGUAGES.values():
        marker = next((m for m in lang.markers if m in top), None)
        if marker and not lang.compiled:
            run = " ".join(lang.run)
            raise BundleError(
                f"A {lang.name} bot runs {lang.source} at the top of its files ({run}): these "
                f"hold {marker} but no {lang.source}. Add a {lang.source} that loads your code "
                "(nothing is installed: no dependencies)."
            )


def _needs(lang: Language) -> str:
    # An interpreted language's build file alone runs nothing: only its entry makes a bot.
    return " or ".join((lang.source, *(lang.markers if lang.compiled else ())))


def check_files(filename: str, data: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES) -> Bundle:
    """The upload check alone (``sandbox.bundle.check_bundle``, zips of every language), with
    no decision on the language yet (a form's file field, before its language field)."""
    return check_bundle(filename, data, max_bytes=max_bytes, entries=ENTRIES)


def check_upload(
    filename: str, data: bytes, *, language: str | None = None, max_bytes: int = MAX_UPLOAD_BYTES
) -> tuple[Bundle, Language]:
    """The upload check (``sandbox.bundle.check_bundle``, zips of every language) and its
    language; :class:`BundleError` for the uploader."""
    bundle = check_files(filename, data, max_bytes=max_bytes)
    return bundle, bundle_language(bundle, language)
