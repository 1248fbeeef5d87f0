"""Bots in other languages on the site: the upload recognises the language from the files (or
the uploader chooses where they allow several), the worker's check builds a compiled language
once in a Docker build container and stores the build by its hash, a build failure is the
version's status with the compiler's words for its owner only, and workers run the build they
fetch and verify."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from bots import upload_check
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import upload_version
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from arena.codestore import CodeFetchError, resolve
from arena.contract import SeatSpec
from sandbox.bundle import BundleError
from tests.language_bots import BOTS, BROKEN
from tests.security.badfiles import BOMB_METHODS, REFUSED, bomb
from tests.site_fixtures import BOT_SOURCE, make_zip

JS = BOTS["javascript"][1]


@pytest.fixture
def api(user: Any) -> Client:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=user)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}")


@pytest.mark.parametrize("key", ["cpp", "go", "rust", "java", "javascript"])
def test_a_single_source_file_is_its_language(user_bot: Bot, key: str) -> None:
    name, data = BOTS[key]
    version = upload_version(
        bot=user_bot, filename=name.upper() if key == "cpp" else name, data=data
    )
    assert version.language == key
    assert version.code.name.endswith(f"/v1.{name.rsplit('.', 1)[1]}")
    assert version.status == VersionStatus.CHECKING


def test_zips_of_the_usual_layouts_are_recognised(user_bot: Bot) -> None:
    cargo = make_zip(
        {
            "mybot/Cargo.toml": b'[package]\nname = "b"\nversion = "0.1.0"\n',
            "mybot/src/main.rs": b"",
        }
    )
    assert upload_version(bot=user_bot, filename="b.zip", data=cargo).language == "rust"
    gomod = make_zip({"go.mod": b"module b\n\ngo 1.19\n", "main.go": BOTS["go"][1]})
    assert upload_version(bot=user_bot, filename="g.zip", data=gomod).language == "go"
    java = make_zip({"Main.java": BOTS["java"][1], "Helper.java": b"class Helper {}\n"})
    assert upload_version(bot=user_bot, filename="j.zip", data=java).language == "java"
    cpp = make_zip({"src/main.cpp": b"int main() {}\n", "src/util.cpp": b"int f() { return 1; }\n"})
    assert upload_version(bot=user_bot, filename="c.zip", data=cpp).language == "cpp"
    node = make_zip(
        {
            "package.json": b'{"name": "b", "main": "main.js"}\n',
            "main.js": b'require("./lib/reply.js");\n',
            "lib/reply.js": JS,
        }
    )
    assert upload_version(bot=user_bot, filename="n.zip", data=node).language == "javascript"


def test_an_ambiguous_zip_needs_the_uploaders_choice(user_bot: Bot, api: Client) -> None:
    both = make_zip({"main.py": BOT_SOURCE, "main.js": JS})
    with pytest.raises(ValidationError, match=r"Python 3\.11 \(python\) or JavaScript"):
        upload_version(bot=user_bot, filename="bot.zip", data=both)
    url = f"/api/bots/{user_bot.pk}/versions/"
    refused = api.post(url, {"code": SimpleUploadedFile("bot.zip", both)})
    assert refused.status_code == 400
    assert "choose its language" in refused.json()["code"][0]
    chosen = api.post(url, {"code": SimpleUploadedFile("bot.zip", both), "language": "javascript"})
    assert chosen.status_code == 201, chosen.content
    assert chosen.json()["language"] == "javascript"
    # A choice the files do not allow is refused with what they look like.
    wrong = api.post(
        url, {"code": SimpleUploadedFile("main.js", b"let x = 1;\n"), "language": "cpp"}
    )
    assert wrong.status_code == 400
    assert "no C++20" in wrong.json()["code"][0] and "javascript" in wrong.json()["code"][0]
    unknown = api.post(url, {"code": SimpleUploadedFile("main.js", JS), "language": "cobol"})
    assert unknown.status_code == 400 and "language" in unknown.json()


def test_a_node_package_without_main_js_is_refused_saying_what_runs(
    user_bot: Bot, api: Client
) -> None:
    """A package.json whose ``main`` is index.js: refused at upload with what a JavaScript
    bot runs (it was accepted, then failed its check on a worker), chosen or not."""
    package = make_zip({"package.json": b'{"name": "b", "main": "index.js"}\n', "index.js": JS})
    url = f"/api/bots/{user_bot.pk}/versions/"
    for extra in ({}, {"language": "javascript"}):
        refused = api.post(url, {"code": SimpleUploadedFile("bot.zip", package), **extra})
        assert refused.status_code == 400, refused.content
        message = refused.json()["code"][0]
        assert message.startswith("A JavaScript (Node.js 18) bot runs main.js at the top")
        assert "(node --max-old-space-size=384 main.js)" in message
        assert "hold package.json but no main.js" in message
    assert not user_bot.versions.exists()


#: The upload check's refusals of a zip's structure (paths, links, sizes, methods, bombs),
#: with the Python entry renamed to another language's (same length: the zip stays valid).
STRUCTURE_REFUSED = [
    (cid, data, message)
    for cid, name, data, message in REFUSED
    if name.endswith(".zip") and "main" not in message and cid != "main-latin1"
] + [(f"bomb-{method}", bomb(method), "") for method in BOMB_METHODS]


@pytest.mark.parametrize(
    ("cid", "data", "message"), STRUCTURE_REFUSED, ids=[c[0] for c in STRUCTURE_REFUSED]
)
@pytest.mark.parametrize("source", ["main.rs", "main.go", "main.js"])
def test_every_check_of_a_zip_holds_for_every_language(
    cid: str, data: bytes, message: str, source: str, tmp_path: Any
) -> None:
    """The shared validator keeps every check for a zip of another language: the upload's
    (with its language) and the worker's unpacking refuse it alike (``main-latin1`` is
    Python's own rule: other compilers read their sources' encodings themselves)."""
    from sandbox.bundle_language import check_upload
    from sandbox.code import prepare_bot

    renamed = data.replace(b"main.py", source.encode())
    with pytest.raises(BundleError) as upload:
        check_upload("bot.zip", renamed)
    assert message in str(upload.value)
    assert "main.py" not in str(upload.value)
    path = tmp_path / "bot.zip"
    path.write_bytes(renamed)
    with pytest.raises(BundleError):
        prepare_bot(path)


def test_the_web_form_takes_a_language(user: Any, user_bot: Bot) -> None:
    client = Client()
    client.force_login(user)
    page = client.get(f"/bots/{user_bot.pk}/upload/").content.decode()
    assert 'name="language"' in page and "Rust" in page and "Go 1.19" in page
    both = make_zip({"main.py": BOT_SOURCE, "main.js": JS})
    resp = client.post(
        f"/bots/{user_bot.pk}/upload/",
        {"code": SimpleUploadedFile("bot.zip", both), "language": "python"},
    )
    assert resp.status_code == 302
    assert user_bot.versions.get().language == "python"


def test_the_schema_names_the_language(api: Client) -> None:
    schema = Client().get("/api/schema/?format=json").json()
    upload = schema["components"]["schemas"]
    text = str(upload)
    assert "javascript" in text and "rust" in text


def _docker_or_skip() -> None:
    from sandbox.docker_engine import check_image, connect
    from sandbox.languages import get_language

    try:
        client = connect(5.0)
        check_image(client, get_language("cpp").build_image)
    except Exception as exc:
        pytest.skip(f"Docker with the C++ image is needed: {exc}")


def test_a_compiled_version_is_built_once_and_its_build_stored(
    user_bot: Bot, settings: Any, inline: Callable[..., Any], tmp_path: Any, monkeypatch: Any
) -> None:
    _docker_or_skip()
    settings.ARENA_SANDBOX = "docker"
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    version = upload_version(bot=user_bot, filename="main.cpp", data=BOTS["cpp"][1])
    assert inline(upload_check.run_check, version.pk) == VersionStatus.UPLOADED
    version.refresh_from_db()
    # Then it qualified on its own (the qualification is played inline here, in Docker).
    assert version.status == VersionStatus.ACTIVE, (version.status_reason, version.failure_stderr)
    assert version.artifact and version.artifact_sha256
    with version.artifact.open("rb") as fh:
        built = fh.read()
    assert hashlib.sha256(built).hexdigest() == version.artifact_sha256
    # A worker runs the build it fetched and verified, not the source.
    seat = SeatSpec(bot=f"version:{version.pk}", sha256=version.sha256)
    path = resolve(seat)
    assert path.endswith(f"{version.artifact_sha256}.built.zip")
    with open(path, "rb") as fh:
        assert fh.read() == built


def test_a_tampered_build_is_refused_by_the_worker(
    user_bot: Bot, settings: Any, inline: Callable[..., Any], tmp_path: Any, monkeypatch: Any
) -> None:
    _docker_or_skip()
    settings.ARENA_SANDBOX = "docker"
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    version = upload_version(bot=user_bot, filename="main.cpp", data=BOTS["cpp"][1])
    inline(upload_check.run_check, version.pk)
    version.refresh_from_db()
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "another-worker"))
    with open(version.artifact.path, "ab") as fh:
        fh.write(b"tampered")
    seat = SeatSpec(bot=f"version:{version.pk}", sha256=version.sha256)
    with pytest.raises(CodeFetchError, match="does not match its hash"):
        resolve(seat)


def test_a_build_failure_is_the_owners_to_read(
    user: Any, other_user: Any, user_bot: Bot, settings: Any, inline: Callable[..., Any]
) -> None:
    _docker_or_skip()
    settings.ARENA_SANDBOX = "docker"
    name, data = BROKEN["cpp"]
    version = inline(upload_version, bot=user_bot, filename=name, data=data)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert version.status_reason.startswith("the C++20 (g++ 12) build failed (exit status 1)")
    assert "undefined_name" in version.status_reason
    assert not version.artifact
    client = Client()
    client.force_login(user)
    assert "undefined_name" in client.get(f"/bots/{user_bot.pk}/").content.decode()
    client.force_login(other_user)
    page = client.get(f"/bots/{user_bot.pk}/").content.decode()
    assert "Failed" in page and "undefined_name" not in page
    assert BotVersion.objects.get(pk=version.pk).status == VersionStatus.FAILED


def test_a_compiler_bomb_is_the_owners_to_read_through_the_api(
    api: Client, other_user: Any, user_bot: Bot, settings: Any, inline: Callable[..., Any]
) -> None:
    """A few lines that flood the compiler's output, uploaded through the API: the version
    fails with the limit it hit and the compiler's first lines for its owner; another user's
    API and page show that it failed and nothing of why."""
    from tests.sandbox.test_docker_languages import ERROR_FLOOD

    _docker_or_skip()
    settings.ARENA_SANDBOX = "docker"
    url = f"/api/bots/{user_bot.pk}/versions/"
    up = inline(api.post, url, {"code": SimpleUploadedFile("main.cpp", ERROR_FLOOD)})
    assert up.status_code == 201, up.content
    mine = api.get(url).json()[0]
    assert mine["status"] == "failed"
    reason = mine["status_reason"]
    assert reason.startswith("the C++20 (g++ 12) build failed (")
    assert "the compiler's output passed 64 KiB and was cut off" in reason
    assert "invalid conversion from" in reason and len(reason) < 8000
    stranger = Client()
    stranger.force_login(other_user)
    theirs = stranger.get(url).json()[0]
    assert theirs["status"] == "failed"
    assert "status_reason" not in theirs and "failure_stderr" not in theirs
    page = stranger.get(f"/bots/{user_bot.pk}/").content.decode()
    assert "Failed" in page and "invalid conversion" not in page and "64 KiB" not in page


def test_upload_pages_name_every_language(user: Any, user_bot: Bot) -> None:
    from sandbox.languages import LANGUAGES

    client = Client()
    client.force_login(user)
    for url in ("/bots/new/", f"/bots/{user_bot.pk}/upload/"):
        page = client.get(url).content.decode()
        for lang in LANGUAGES.values():
            assert lang.name.replace("+", "") in page.replace("+", ""), (url, lang.key)
            assert lang.source in page, (url, lang.key)


def test_the_chosen_language_of_ambiguous_files_is_the_one_that_plays(
    user_bot: Bot, settings: Any, inline: Callable[..., Any], tmp_path: Any, monkeypatch: Any
) -> None:
    """A zip holding main.py and main.js, uploaded as JavaScript, qualifies as JavaScript: the
    worker stores the folder marked with the choice, and the match runs node, not Python."""
    import shutil

    if shutil.which("node") is None:
        pytest.skip("this machine has no node")
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True  # no Docker here: the process sandbox may play it
    python_that_crashes = b"raise SystemExit('the Python half must not play')\n"
    both = make_zip({"main.py": python_that_crashes, "main.js": JS})
    version = upload_version(bot=user_bot, filename="bot.zip", data=both, language="javascript")
    assert inline(upload_check.run_check, version.pk) == VersionStatus.UPLOADED
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE, (version.status_reason, version.failure_stderr)
    assert version.artifact_sha256


def test_the_bot_page_and_the_api_guide_name_languages(user: Any, user_bot: Bot) -> None:
    upload_version(bot=user_bot, filename="main.go", data=BOTS["go"][1])
    page = Client().get(f"/bots/{user_bot.pk}/").content.decode()
    assert '<span data-test="language">Go 1.19</span>' in page
    guide = Client().get("/docs/api/").content.decode()
    assert "-F language=cpp" in guide and "main.rs" in guide and "Java 17" in guide


def test_a_python_bot_beside_a_package_json_stays_python(
    user_bot: Bot, settings: Any, inline: Callable[..., Any], tmp_path: Any, monkeypatch: Any
) -> None:
    """A build file of an interpreted language without its entry file makes no JavaScript bot:
    the upload is Python (as before languages), and it plays as Python."""
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True  # no Docker here: the process sandbox may play it
    files = make_zip({"main.py": BOT_SOURCE, "package.json": b'{"name": "tools"}\n'})
    version = upload_version(bot=user_bot, filename="bot.zip", data=files)
    assert version.language == "python"
    assert inline(upload_check.run_check, version.pk) == VersionStatus.UPLOADED
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE, (version.status_reason, version.failure_stderr)
