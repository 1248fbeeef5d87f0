"""The Docker backend runs every language (sandbox.languages) in its own image: built once in
a build container (no network, capped output, a wall-clock limit), then run with the language's
command, environment and limits; a build failure is a clear ``BuildFailed``, nothing left
behind. Against the real engine and the images of deploy/build-language-images.sh."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sandbox import Limits
from sandbox.base import BotCode
from sandbox.built import BUILT, is_built
from sandbox.docker_build import build_in_docker
from sandbox.docker_spec import LABEL
from sandbox.host_build import PUBLIC_BUILD_FAILED, BuildFailed
from sandbox.languages import BINARY, get_language
from sandbox.workers import worker_id
from tests.language_bots import BOTS, BROKEN

pytestmark = pytest.mark.docker
# This test process's own match label: parallel test processes' containers are not leftovers.
LABELS = {"test": "1", "match": f"docker-languages-{os.getpid()}"}
#: What each compiler says of its language's broken program (sandbox/languages/<key>.py).
COMPILER_SAYS = {key: get_language(key).broken_says for key in BROKEN}


def _images_or_skip(sandbox, *keys: str) -> None:
    for key in keys:
        lang = get_language(key)
        for image in {lang.image, lang.build_image}:
            try:
                sandbox.client.images.get(image)
            except Exception:
                pytest.fail(f"{image} is missing: run deploy/build-language-images.sh")


def _source(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _leftovers(sandbox) -> list:
    return sandbox.client.containers.list(
        # Every container this test process started, bots' and builds' alike.
        all=True,
        filters={"label": f"{LABEL}.worker={worker_id()}"},
    )


@pytest.mark.parametrize("key", sorted(BOTS))
def test_each_language_builds_and_plays_in_its_image(
    key: str, docker_sandbox, prepared, tmp_path: Path
) -> None:
    _images_or_skip(docker_sandbox, key)
    lang = get_language(key)
    name, data = BOTS[key]
    code: BotCode = prepared(_source(tmp_path, name, data))
    assert code.language == key
    bot = docker_sandbox.start(code, labels=LABELS, limits=Limits())
    try:
        bot.container.reload()
        cfg, hc = bot.container.attrs["Config"], bot.container.attrs["HostConfig"]
        assert cfg["Image"] == lang.image
        assert cfg["Cmd"] == list(lang.run)
        assert hc["Memory"] == max(512, lang.memory_mb) * 1024 * 1024
        assert hc["PidsLimit"] == max(64, lang.pids)
        assert hc["NetworkMode"] == "none" and hc["ReadonlyRootfs"] is True
        bot.send_line(json.dumps({"type": "start", "players": 2, "seat": 0}))
        assert json.loads(bot.read_line(timeout_s=30) or "{}") == {"type": "ready"}
        act = {"type": "act", "turn": 1, "legal_actions": [{"x": 1}, {"x": 2}]}
        bot.send_line(json.dumps(act))
        assert json.loads(bot.read_line(timeout_s=10) or "{}")["action_index"] == 0
    finally:
        bot.close()
    if lang.compiled:
        assert is_built(code)  # built once, in place
        assert not (code.root / BUILT).exists()  # remembered, not written in the bot's folder
    assert _leftovers(docker_sandbox) == []


@pytest.mark.parametrize("key", sorted(BOTS))
def test_a_build_failure_is_the_compilers_message(
    key: str, docker_sandbox, prepared, tmp_path: Path
) -> None:
    _images_or_skip(docker_sandbox, key)
    name, data = BROKEN[key]
    code = prepared(_source(tmp_path, name, data))
    with pytest.raises(BuildFailed) as caught:
        build_in_docker(code, docker_sandbox.client)
    text = str(caught.value)
    assert f"the {get_language(key).name} build failed (exit status" in text
    assert COMPILER_SAYS[key] in text  # the compiler's own words, for the bot's owner
    assert caught.value.public == PUBLIC_BUILD_FAILED  # others read nothing of the code
    assert _leftovers(docker_sandbox) == []


def test_a_compiler_bomb_is_stopped_with_a_reason(docker_sandbox, prepared, tmp_path: Path) -> None:
    """Template recursion: g++'s depth limit ends it with the compiler's own message."""
    _images_or_skip(docker_sandbox, "cpp")
    bomb = b"""template <int N> struct Boom {
    static const int v = Boom<N + 1>::v + Boom<N + 2>::v;
};
int main() { return Boom<0>::v; }
"""
    code = prepared(_source(tmp_path, "main.cpp", bomb))
    with pytest.raises(BuildFailed, match="template instantiation depth exceeds") as caught:
        build_in_docker(code, docker_sandbox.client, timeout_s=60)
    assert len(str(caught.value)) < 8000
    assert not (code.root / BINARY).exists()
    assert _leftovers(docker_sandbox) == []


#: 100,000 errors from 140 bytes: each with its five macro expansions, megabytes of output.
ERROR_FLOOD = b"""#define X10(a) a a a a a a a a a a
int g(int);
void f() { X10(X10(X10(X10(X10(g("x");))))) }
int main() {}
"""


def test_a_flood_of_compiler_output_is_cut_and_said_so(
    docker_sandbox, prepared, tmp_path: Path
) -> None:
    """The compiler's output stops at the cap (the compiler dies on its closed pipe), and the
    owner is told it was cut, above the compiler's first lines."""
    _images_or_skip(docker_sandbox, "cpp")
    code = prepared(_source(tmp_path, "main.cpp", ERROR_FLOOD))
    with pytest.raises(BuildFailed) as caught:
        build_in_docker(code, docker_sandbox.client, timeout_s=60)
    text = str(caught.value)
    head = text.splitlines()[:2]
    assert head[0].startswith("the C++20 (g++ 12) build failed (")
    assert head[1] == "(stopped at a limit: the compiler's output passed 64 KiB and was cut off)"
    assert "invalid conversion from" in text
    assert "more lines before the cut)" in text.splitlines()[-1]
    assert len(text) < 8000
    assert _leftovers(docker_sandbox) == []


def _zip(tmp_path: Path, files: dict[str, bytes]) -> Path:
    import zipfile

    path = tmp_path / "bot.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return path


LAYOUTS = {
    "rust": {
        "mybot/Cargo.toml": b'[package]\nname = "mybot"\nversion = "0.1.0"\nedition = "2021"\n',
        "mybot/src/main.rs": BOTS["rust"][1],
    },
    "go": {"go.mod": b"module mybot\n\ngo 1.19\n", "main.go": BOTS["go"][1]},
    "cpp": {
        "main.cpp": b'#include "reply.hpp"\nint main() { return run(); }\n',
        "reply.hpp": b"int run();\n",
        "reply.cpp": BOTS["cpp"][1].replace(b"int main()", b"int run()"),
    },
    # A Node package in a folder: its own module beside main.js, no install step.
    "javascript": {
        "mybot/package.json": b'{"name": "mybot", "version": "1.0.0", "main": "main.js"}\n',
        "mybot/main.js": b'require("./lib/reply.js");\n',
        "mybot/lib/reply.js": BOTS["javascript"][1],
    },
    "java": {
        "Main.java": b"public class Main { public static void main(String[] a) throws Exception"
        b" { Reply.main(a); } }\n",
        "Reply.java": BOTS["java"][1].replace(b"public class Main", b"class Reply"),
    },
}


@pytest.mark.parametrize("key", sorted(LAYOUTS))
def test_zips_of_the_usual_layouts_build_and_play(
    key: str, docker_sandbox, prepared, tmp_path: Path
) -> None:
    """A Cargo project, a Go module, several C++ files, several Java classes, a Node
    package."""
    _images_or_skip(docker_sandbox, key)
    code = prepared(_zip(tmp_path, LAYOUTS[key]))
    assert code.language == key
    bot = docker_sandbox.start(code, labels=LABELS, limits=Limits())
    try:
        bot.send_line(json.dumps({"type": "start", "players": 2, "seat": 0}))
        assert json.loads(bot.read_line(timeout_s=30) or "{}") == {"type": "ready"}, (
            bot.exit_reason(),
            bot.stderr_text(),
        )
    finally:
        bot.close()


def test_a_huge_constant_array_stops_at_the_file_size_cap(
    docker_sandbox, prepared, tmp_path: Path
) -> None:
    _images_or_skip(docker_sandbox, "cpp")
    big = b"char big[1u << 30] = {1};\nint main() { return big[5]; }\n"
    code = prepared(_source(tmp_path, "main.cpp", big))
    with pytest.raises(BuildFailed, match="File size limit exceeded") as caught:
        build_in_docker(code, docker_sandbox.client)
    # The compiler blames itself ("internal compiler error"); the owner is told the limit.
    assert (
        "(stopped at a limit: a file the build wrote passed the build's limit of 256 MB)"
        in (str(caught.value).splitlines()[1])
    )
    assert _leftovers(docker_sandbox) == []


def test_a_build_past_its_wall_clock_limit_is_stopped(
    docker_sandbox, prepared, tmp_path: Path
) -> None:
    """A Cargo build script that never ends (it sleeps ten minutes) is killed at the limit."""
    _images_or_skip(docker_sandbox, "rust")
    files = {
        "Cargo.toml": b'[package]\nname = "slow"\nversion = "0.1.0"\nedition = "2021"\n',
        "build.rs": b"fn main() { std::thread::sleep(std::time::Duration::from_secs(600)); }\n",
        "src/main.rs": BOTS["rust"][1],
    }
    code = prepared(_zip(tmp_path, files))
    with pytest.raises(BuildFailed, match=r"build took over 5 s and was stopped"):
        build_in_docker(code, docker_sandbox.client, timeout_s=5)
    assert _leftovers(docker_sandbox) == []
    assert not is_built(code)
