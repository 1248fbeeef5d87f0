"""The starter bot of every language (arena/starters/) plays whole matches of every game with
zero faults, built and run by the process backend with this machine's toolchains; ``arena
new-bot --lang`` writes a folder that ``arena play`` runs; a build failure and a missing
toolchain are clear errors.

A language whose toolchain is missing here is skipped with the reason; under CI=true it fails
(.ci/services.sh installs them all). Each starter is compiled once per machine and source (the
process backend's build cache), so the matches after the first of a language start at once.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from referee_helpers import seats_for

from arena.cli import main
from arena.cli.shared import EXIT_BAD_INPUT, EXIT_OK
from arena.newbot import new_bot
from arena.referee import TimeControl, run_match
from games import registry
from sandbox import host_build
from sandbox.base import BotCode, SandboxError
from sandbox.code import BotCodeError, prepare_bot, release_bot
from sandbox.host_build import BuildFailed, missing_tools
from sandbox.languages import LANGUAGES, get_language
from sandbox.process import ProcessSandbox
from tests.conftest import missing_service

#: Short matches: the fewest rounds or turns each game allows to end normally.
SHORT = {
    "trnd": {"max_rounds": 4},
    "trishaw-frenzy": {"rounds": 1},
    "manhattan-traffiq": {"max_turns": 40},
}
#: Generous clocks: a JVM's first moves run in its interpreter, and CI's machines are shared.
CLOCK = TimeControl(start_ms=20000, move_ms=3000, bank_ms=30000)


def need_toolchain(lang: str) -> None:
    missing = missing_tools(get_language(lang))
    if missing:
        missing_service(f"{', '.join(missing)} not installed: {lang} bots cannot be built here")


@pytest.fixture(scope="module")
def starters(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per language, the folder ``new_bot`` writes (for one game: the starter is the same
    program for every game, only its header comment names the game)."""
    base = tmp_path_factory.mktemp("starters")
    return {lang: new_bot("trnd", base / lang, lang=lang)[0].parent for lang in LANGUAGES}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_starter_plays_every_game_without_a_fault(lang: str, starters: dict[str, Path]) -> None:
    need_toolchain(lang)
    folder = str(starters[lang])
    for slug in registry.slugs():
        outcome = run_match(
            slug,
            [folder] * seats_for(slug),
            seed=7,
            options=SHORT.get(slug, {}),
            time=CLOCK,
            sandbox="process",
        )
        assert outcome.status == "finished", (slug, outcome.error)
        for k, seat in enumerate(outcome.seats):
            # the seat's stderr says why it ended (the sandbox's or the program's last words)
            said = outcome.replay["logs"][k][-1000:]
            assert seat.status == "ok" and seat.faults == [], (slug, seat, said)
            assert seat.name == ("starter" if lang == "python" else f"starter-{lang}")
        # one stderr line per decision of the seat, and the last words at the end
        logs = outcome.replay["logs"][0]
        decisions = sum(1 for d in outcome.replay["decisions"] if d["seat"] == 0)
        assert logs.count(" legal actions, chose ") == decisions > 0, slug
        assert "the match is over" in logs


def test_each_starter_names_its_game_and_builds_as_a_single_file(tmp_path: Path) -> None:
    for lang in LANGUAGES:
        written = new_bot("trnd", tmp_path / lang, lang=lang)
        source = written[0].read_text()
        assert written[0].name == LANGUAGES[lang].source
        assert "Game: TRND (trnd), written by arena new-bot" in source
        assert "any Meeple Arena game" not in source
        readme = written[1].read_text()
        assert "arena play trnd ." in readme and LANGUAGES[lang].name in readme


@pytest.mark.parametrize("lang", ["cpp", "javascript"])
def test_new_bot_lang_folder_plays_through_the_cli(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    need_toolchain(lang)
    folder = tmp_path / "mine"
    assert main(["new-bot", "trnd", str(folder), "--lang", lang]) == EXIT_OK
    capsys.readouterr()
    code = main(
        ["play", "trnd", str(folder), "builtin:random", "builtin:random", "--json",
         "--sandbox", "process", "--option", "max_rounds=4"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    seat = json.loads(out)["seats"][0]
    assert seat["status"] == "ok" and seat["name"] == f"starter-{lang}", seat


def test_new_bot_help_lists_the_languages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["new-bot", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for key, lang in LANGUAGES.items():
        assert f"{key}: {lang.name}" in text
    assert main(["new-bot", "trnd", "x", "--lang", "cobol"]) == EXIT_BAD_INPUT


@pytest.mark.parametrize(
    ("name", "text", "lang"),
    [("main.cpp", "int main() { return x; }\n", "cpp"), ("main.go", "package main\nfunc\n", "go")],
)
def test_a_build_failure_names_the_compilers_first_lines(
    name: str, text: str, lang: str, tmp_path: Path
) -> None:
    need_toolchain(lang)
    (tmp_path / name).write_text(text)
    code = prepare_bot(tmp_path / name)
    try:
        assert code.language == lang
        with pytest.raises(BuildFailed, match="build failed") as info:
            ProcessSandbox().prepare(code)
        assert "main." in str(info.value)  # the compiler's own line, naming the file
        assert "did not build" in info.value.public and name not in info.value.public
    finally:
        release_bot(code)


def test_arena_play_names_the_seat_whose_build_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two bots of one language: the error says which of them did not build."""
    need_toolchain("cpp")
    assert main(["new-bot", "trnd", str(tmp_path / "good"), "--lang", "cpp"]) == EXIT_OK
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "main.cpp").write_text("int main() { return x; }\n")
    capsys.readouterr()
    code = main(
        ["play", "trnd", str(tmp_path / "good"), str(tmp_path / "bad"), "builtin:random",
         "--sandbox", "process",
         "--option", "max_rounds=1"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT, err
    assert f"seat 1 ({tmp_path / 'bad'})" in err and "build failed" in err, err
    assert "seat 0" not in err, err


def test_a_host_build_says_when_its_output_was_cut(tmp_path: Path) -> None:
    """A flood of compiler errors (megabytes from a few lines) on the host: the owner reads
    the first lines and that the output was cut, as from a Docker build."""
    from tests.sandbox.test_docker_languages import ERROR_FLOOD

    need_toolchain("cpp")
    (tmp_path / "main.cpp").write_bytes(ERROR_FLOOD)
    code = prepare_bot(tmp_path / "main.cpp")
    try:
        with pytest.raises(BuildFailed) as info:
            ProcessSandbox().prepare(code)
    finally:
        release_bot(code)
    lines = str(info.value).splitlines()
    assert lines[1] == "(stopped at a limit: the compiler's output passed 64 KiB and was cut off)"
    assert "invalid conversion from" in str(info.value)
    assert lines[-1].endswith("more lines before the cut)")


def test_a_missing_toolchain_is_a_clear_sandbox_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(host_build.shutil, "which", lambda tool, *a, **k: None)
    (tmp_path / "main.cpp").write_text("int main() {}\n")
    code = BotCode(root=tmp_path, entry="main.cpp", language="cpp")
    expected = "this machine cannot run C\\+\\+20 bots: g\\+\\+ not found"
    with pytest.raises(SandboxError, match=expected):
        ProcessSandbox().prepare(code)


def test_language_is_recognised_from_a_file_a_folder_and_a_zip(tmp_path: Path) -> None:
    import zipfile

    cargo = tmp_path / "cargo"
    (cargo / "src").mkdir(parents=True)
    (cargo / "Cargo.toml").write_text('[package]\nname = "b"\nversion = "0.1.0"\n')
    (cargo / "src" / "main.rs").write_text("fn main() {}\n")
    with zipfile.ZipFile(tmp_path / "bot.zip", "w") as z:
        z.writestr("mybot/Main.java", "class Main {}\n")
    (tmp_path / "bot.js").write_text("\n")
    cases = [(cargo, "rust"), (tmp_path / "bot.zip", "java"), (tmp_path / "bot.js", "javascript")]
    for path, lang in cases:
        code = prepare_bot(path)
        try:
            assert code.language == lang
            assert (code.root / LANGUAGES[lang].source).is_file() or lang == "rust"
        finally:
            release_bot(code)


def test_a_build_sees_nothing_of_the_host_beyond_its_folder(tmp_path: Path) -> None:
    need_toolchain("cpp")
    if not Path(host_build.BWRAP).exists():
        missing_service("bubblewrap is not installed: builds see the host")
    # A file of the host outside /tmp (a build's /tmp is its own anyway): in the home folder.
    home = Path(tempfile.mkdtemp(prefix=".arena-test-", dir=Path.home()))
    secret = home / "secret.h"
    secret.write_text("int secret = 1;\n")
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.cpp").write_text(f'#include "{secret}"\nint main() {{ return secret; }}\n')
    code = prepare_bot(bot)
    try:
        with pytest.raises(BuildFailed, match="No such file or directory"):
            ProcessSandbox().prepare(code)
    finally:
        release_bot(code)
        shutil.rmtree(home, ignore_errors=True)


def test_an_ambiguous_folder_says_what_it_holds(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("\n")
    (tmp_path / "main.cpp").write_text("\n")
    with pytest.raises(BotCodeError, match=r"holds main\.py and main\.cpp at its top"):
        prepare_bot(tmp_path)


def test_the_process_backend_says_which_languages_it_cannot_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = host_build.shutil.which
    monkeypatch.setattr(
        host_build.shutil, "which", lambda tool, *a, **k: None if tool == "go" else real(tool)
    )
    assert "cannot run go (go not found)" in ProcessSandbox().describe()
