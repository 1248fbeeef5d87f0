"""The starter bot: the site's zip holds exactly what ``arena new-bot`` writes, and the runtime
it names is the runtime image's."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from arena.newbot import new_bot, starter_zip
from games.base import GameError
from games.registry import slugs
from sandbox.docker import RUNTIME_IMAGE
from sandbox.languages import LANGUAGES, UnknownLanguage
from sandbox.languages.python import RUNTIME, RUNTIME_LIBRARIES, RUNTIME_PYTHON

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("slug", slugs())
def test_zip_holds_exactly_the_files_new_bot_writes(slug: str, tmp_path: Path) -> None:
    written = new_bot(slug, tmp_path / "bot")
    archive = zipfile.ZipFile(io.BytesIO(starter_zip(slug)))
    assert sorted(archive.namelist()) == sorted(p.name for p in written)
    for path in written:
        assert archive.read(path.name) == path.read_bytes()
    assert starter_zip(slug) == starter_zip(slug)  # reproducible bytes


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_languages_zip_holds_what_new_bot_lang_writes(lang: str, tmp_path: Path) -> None:
    written = new_bot("trnd", tmp_path / "bot", lang=lang)
    archive = zipfile.ZipFile(io.BytesIO(starter_zip("trnd", lang)))
    assert sorted(archive.namelist()) == sorted(["README.md", LANGUAGES[lang].source])
    for path in written:
        assert archive.read(path.name) == path.read_bytes()
    assert starter_zip("trnd", lang) == starter_zip("trnd", lang)


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(UnknownLanguage, match="choose one of python, javascript"):
        starter_zip("trnd", "cobol")


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(GameError, match="unknown game"):
        starter_zip("chess")


def test_starter_readme_says_where_arena_is() -> None:
    readme = zipfile.ZipFile(io.BytesIO(starter_zip("trnd"))).read("README.md").decode()
    assert ".venv/bin/activate" in readme and ".venv/bin/arena" in readme
    assert RUNTIME in " ".join(readme.split())


def test_runtime_named_is_the_runtime_image() -> None:
    dockerfile = (ROOT / "deploy/runtime/Dockerfile").read_text()
    build = (ROOT / "deploy/build-runtime-image.sh").read_text()
    assert f"FROM python:{RUNTIME_PYTHON}-slim" in dockerfile
    assert f":py{RUNTIME_PYTHON}-" in RUNTIME_IMAGE
    assert f"python{RUNTIME_PYTHON}" in build
    pip_line = re.findall(r'pip install --no-cache-dir ((?:"[^"]+" ?)+)', dockerfile)[0]
    installed = {re.sub(r"[=<>].*", "", p.strip('"')) for p in pip_line.split()}
    assert installed == set(RUNTIME_LIBRARIES)
    for library in RUNTIME_LIBRARIES:
        assert f"import {library}" in build
