"""A worker's code for a seat (arena/codestore.py): the match spec names an uploaded version's
language and its build's hash, and the worker runs the build it fetched and verified against
that hash, as built, in that language, whatever the files say. A spec from before specs named
them still plays (the build found through the fetcher, the language recognised)."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena import codestore
from arena.botspec import StoredCode
from arena.contract import MatchSpec, SeatSpec
from arena.tasks import play
from sandbox.build_upload import build_upload
from tests.language_bots import BOTS
from tests.security.badfiles import GOOD_MAIN

PYTHON_BOT = (
    b"import json, sys\n"
    b"for line in sys.stdin:\n"
    b"    msg = json.loads(line)\n"
    b"    if msg['type'] == 'start':\n"
    b"        print(json.dumps({'type': 'ready'}), flush=True)\n"
    b"    elif msg['type'] == 'act':\n"
    b"        print(json.dumps({'action_index': 0}), flush=True)\n"
    b"    else:\n"
    b"        break\n"
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    yield tmp_path / "cache"
    codestore.register_fetcher(None)


class _Storage:
    """A version's upload and build, as the site's fetcher serves them; counts the look-ups
    of a build's hash (which a spec that names it makes needless)."""

    def __init__(self, upload: tuple[bytes, str], build: bytes | None) -> None:
        self.upload, self.build = upload, build
        self.digest_asked = 0

    def register(self) -> None:
        codestore.register_fetcher(
            lambda _id: self.upload, builds=(self._digest, lambda _id: self.build or b"")
        )

    def _digest(self, _version: int) -> str:
        self.digest_asked += 1
        return hashlib.sha256(self.build).hexdigest() if self.build else ""


def _seat(data: bytes, **more: Any) -> SeatSpec:
    return SeatSpec(bot="version:9", sha256=hashlib.sha256(data).hexdigest(), **more)


def test_a_spec_that_names_the_build_runs_it_without_asking(cache: Path) -> None:
    build = b"PK-the-build"
    storage = _Storage((b"int main(){}\n", ".cpp"), build)
    storage.register()
    seat = _seat(
        b"int main(){}\n", language="cpp", artifact_sha256=hashlib.sha256(build).hexdigest()
    )
    code = codestore.seat_code(seat)
    assert isinstance(code, StoredCode)
    assert code.language == "cpp" and code.built
    assert Path(code.path).read_bytes() == build and storage.digest_asked == 0


def test_a_build_that_is_not_the_specs_is_refused(cache: Path) -> None:
    storage = _Storage((b"int main(){}\n", ".cpp"), b"another build")
    storage.register()
    seat = _seat(b"int main(){}\n", language="cpp", artifact_sha256="ab" * 32)
    with pytest.raises(codestore.CodeFetchError, match="build does not match its hash"):
        codestore.seat_code(seat)


def test_a_spec_with_no_build_runs_the_upload(cache: Path) -> None:
    storage = _Storage((GOOD_MAIN, ".py"), b"a build the spec does not name")
    storage.register()
    code = codestore.seat_code(_seat(GOOD_MAIN, language="python"))
    assert isinstance(code, StoredCode) and not code.built and code.language == "python"
    assert Path(code.path).read_bytes() == GOOD_MAIN and storage.digest_asked == 0


def test_an_old_spec_finds_the_build_through_the_fetcher(cache: Path) -> None:
    build = b"PK-the-build"
    storage = _Storage((b"int main(){}\n", ".cpp"), build)
    storage.register()
    code = codestore.seat_code(_seat(b"int main(){}\n"))
    assert isinstance(code, StoredCode) and code.built and code.language is None
    assert Path(code.path).read_bytes() == build and storage.digest_asked == 1


def test_builtin_and_human_seats_are_what_they_say(cache: Path) -> None:
    assert codestore.seat_code(SeatSpec(bot="builtin:random")) == "builtin:random"
    assert codestore.seat_code(SeatSpec(bot="human")) == "human"


def _match(seat: SeatSpec) -> MatchSpec:
    return MatchSpec(
        game="trnd",
        seats=(seat, SeatSpec(bot="builtin:random"), SeatSpec(bot="builtin:greedy")),
        seed=1,
        match_id="codestore",
    )


def test_a_spec_from_before_languages_still_plays(cache: Path) -> None:
    _Storage((PYTHON_BOT, ".py"), None).register()
    spec = MatchSpec.from_json(
        {
            "game": "trnd",
            "seats": [
                {"bot": "version:9", "sha256": hashlib.sha256(PYTHON_BOT).hexdigest()},
                "builtin:random",
                "builtin:greedy",
            ],
            "seed": 1,
        }
    )
    outcome = play(spec, sandbox="process", allow_unsafe=True)
    assert outcome.status == "finished", outcome.error
    assert outcome.seats[0].status == "ok" and outcome.seats[0].faults == [], outcome.seats[0]


def test_a_stored_build_plays_as_the_spec_says_without_compiling(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("g++") is None:
        pytest.skip("this machine has no C++ toolchain")
    name, source = BOTS["cpp"]
    build = build_upload(name, source, "cpp", sandbox="process")
    assert build is not None
    _Storage((source, ".cpp"), build).register()

    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("compiled when a match started the bot")

    monkeypatch.setattr("sandbox.process.build_bot", refuse)
    seat = _seat(source, language="cpp", artifact_sha256=hashlib.sha256(build).hexdigest())
    outcome = play(_match(seat), sandbox="process", allow_unsafe=True)
    assert outcome.status == "finished", outcome.error
    assert outcome.seats[0].status == "ok" and outcome.seats[0].faults == [], outcome.seats[0]
