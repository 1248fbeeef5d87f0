"""Every language of sandbox/languages/ is one file that describes itself whole: its entry, how
it is built and run, its image, its starter, and its own programs, with which it tests itself
in the process backend here (tests/sandbox/test_docker_languages.py builds and plays them in
Docker). A language missing a part fails here; no code outside sandbox/languages/ asks a
language's key what it is."""

from __future__ import annotations

import pkgutil
import re
from dataclasses import replace
from pathlib import Path

import pytest

import sandbox.languages
from sandbox.host_build import missing_tools
from sandbox.languages import DEFAULT, LANGUAGES, get_language
from sandbox.languages.base import Language
from sandbox.languages.self_test import SelfTestFailed, self_test
from sandbox.process import ProcessSandbox
from tests.conftest import missing_service

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "sandbox" / "languages"
#: The package's modules that are no language.
SHARED = {"base", "self_test"}


def parts_missing(lang: Language) -> list[str]:
    """The parts ``lang`` lacks (empty: it is whole)."""
    missing = [
        name
        for name in ("name", "source", "suffixes", "run", "image", "build_image", "host_tools")
        if not getattr(lang, name)
    ]
    if not lang.hello:
        missing.append("hello (its own minimal bot)")
    if not lang.broken or not lang.broken_says:
        missing.append("broken and broken_says (a program its check refuses, and the words)")
    if lang.source and Path(lang.source).suffix not in lang.suffixes:
        missing.append(f"{lang.source}'s suffix in suffixes")
    if not re.fullmatch(r"[a-z][a-z0-9]*", lang.key):
        missing.append("a lowercase ASCII key")
    if not (ROOT / "arena" / "starters" / lang.key / lang.source).is_file():
        missing.append(f"its starter arena/starters/{lang.key}/{lang.source}")
    if not (lang.prepared or lang.checked_by_compiling):
        missing.append("a build, a check or a compile check (its broken program must fail one)")
    return missing


@pytest.mark.parametrize("key", list(LANGUAGES))
def test_every_language_has_every_part(key: str) -> None:
    assert parts_missing(LANGUAGES[key]) == []


def test_a_language_without_a_part_is_caught() -> None:
    whole = LANGUAGES["cpp"]
    assert parts_missing(replace(whole, hello=b"")) == ["hello (its own minimal bot)"]
    assert "run" in parts_missing(replace(whole, run=()))
    assert "its starter arena/starters/cpp/x.cpp" in parts_missing(replace(whole, source="x.cpp"))


def test_each_language_is_one_file_of_the_package() -> None:
    files = {m.name for m in pkgutil.iter_modules(sandbox.languages.__path__)} - SHARED
    assert set(LANGUAGES) == files
    assert DEFAULT in LANGUAGES
    orders = [lang.order for lang in LANGUAGES.values()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert next(iter(LANGUAGES)) == DEFAULT  # the default first, in every list of languages


def test_the_sandbox_runtime_is_one_language() -> None:
    """The Docker backend's own image and warm pool, the process backend's interpreter."""
    assert [k for k, lang in LANGUAGES.items() if lang.sandbox_runtime] == [DEFAULT]


def test_python_runs_its_entry_with_the_one_command() -> None:
    python = get_language(DEFAULT)
    assert python.run_command("main.py") == list(python.run)
    assert python.run_command("bot.py")[-1] == "bot.py"
    assert get_language("cpp").run_command("main.cpp") == ["./bot"]


def _outside_languages() -> list[Path]:
    tops = ["sandbox", "arena", "platform", "bench", "games"]
    files = [p for top in tops for p in (ROOT / top).rglob("*.py")]
    files += list((ROOT / "tests").glob("*.py")) + list((ROOT / "tests").rglob("conftest.py"))
    return [p for p in files if FOLDER not in p.parents and "migrations" not in p.parts]


def test_no_code_asks_a_language_its_key() -> None:
    """A language's quirks are its own attributes: ``lang.key == "python"`` (or the same with
    ``language``) is written nowhere but in its file."""
    keys = "|".join(LANGUAGES)
    asks = re.compile(
        rf"""(?:key|language|DEFAULT)\s*[!=]=\s*(?:["'](?:{keys})["']|DEFAULT)"""
        rf"""|["'](?:{keys})["']\s*[!=]=\s*\w*(?:key|language)"""
    )
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _outside_languages()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if asks.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("key", list(LANGUAGES))
def test_each_language_tests_itself_in_the_process_backend(key: str) -> None:
    lang = get_language(key)
    if not lang.sandbox_runtime and missing_tools(lang):
        missing_service(f"{', '.join(missing_tools(lang))} not installed: no {key} bot here")
    self_test(lang, ProcessSandbox())


def test_a_self_test_that_does_not_play_fails() -> None:
    python = get_language(DEFAULT)
    mute = replace(python, hello=b"import sys\nsys.stdin.read()\n")
    with pytest.raises(SelfTestFailed, match="no answer in time"):
        self_test(mute, ProcessSandbox(), start_timeout_s=1)


def test_the_docs_name_every_language() -> None:
    """The pages read the registry (``{% bot_languages %}``, the forms); the Markdown docs
    cannot, so this keeps them true: the README's list and docs/sandbox.md's images."""
    readme = (ROOT / "README.md").read_text()
    keys = re.search(r"--lang ([a-z]+(?:\|[a-z]+)+)", readme)
    assert keys is not None and keys.group(1).split("|") == list(LANGUAGES)
    for lang in LANGUAGES.values():
        assert f"`{lang.source}`" in readme, lang.source
    sandbox_md = (ROOT / "docs" / "sandbox.md").read_text()
    for key, lang in LANGUAGES.items():
        assert lang.sandbox_runtime or f"`{key}`" in sandbox_md, key
