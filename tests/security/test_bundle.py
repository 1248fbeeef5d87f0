"""One validator for every door (sandbox.bundle): whatever the upload check refuses, the
sandbox's unpacking and the command line refuse too, with the same message; whatever it
accepts, the sandbox prepares and runs from main.py. A match's public error names no file of a
private zip."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.botspec import BotSpecError, parse_bot_spec
from sandbox.bundle import Bundle, BundleError, check_bundle
from sandbox.code import prepare_bot, release_bot
from tests.security.badfiles import ACCEPTED, GOOD_MAIN, REFUSED, zip_of

# Refused for their structure (the sandbox's unpacking refuses them too); a main.py that does
# not compile is refused at upload only, and would merely crash in a match.
ZIP_REFUSED = [r for r in REFUSED if r[1].endswith(".zip") and r[0] != "main-syntax"]


@pytest.mark.parametrize(("cid", "name", "data", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_upload_check_refuses_with_its_message(cid: str, name: str, data: bytes, message: str):
    with pytest.raises(BundleError, match=None) as caught:
        check_bundle(name, data)
    assert message in str(caught.value)
    assert caught.value.public and "main.py" not in caught.value.public


@pytest.mark.parametrize(
    ("cid", "name", "data", "message"), ZIP_REFUSED, ids=[r[0] for r in ZIP_REFUSED]
)
def test_sandbox_and_cli_refuse_what_the_upload_check_refuses(
    tmp_path: Path, cid: str, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / "bot.zip"
    path.write_bytes(data)
    with pytest.raises(BundleError) as upload:
        check_bundle(name, data)
    with pytest.raises(BundleError) as sandbox:
        prepare_bot(path)
    assert str(sandbox.value) == str(upload.value).replace("The file", "bot.zip")
    with pytest.raises(BotSpecError, match="bot"):
        parse_bot_spec(str(path), "trnd")
    assert not (tmp_path / "etc").exists() and not Path("/etc/x.py").exists()


@pytest.mark.parametrize(("cid", "name", "data"), ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_what_is_accepted_is_prepared_and_runs_from_main(
    tmp_path: Path, cid: str, name: str, data: bytes
) -> None:
    bundle = check_bundle(name, data)
    assert isinstance(bundle, Bundle) and "main.py" in bundle.files
    stored = tmp_path / bundle.stored_name  # what bots.services stores: never the client's name
    stored.write_bytes(data)
    parse_bot_spec(str(stored), "trnd")
    code = prepare_bot(stored)
    try:
        assert (code.root / "main.py").read_bytes() == GOOD_MAIN
        found = sorted(str(p.relative_to(code.root)) for p in code.root.rglob("*") if p.is_file())
        assert found == sorted(bundle.files)
    finally:
        release_bot(code)


def test_match_error_is_public_text_without_private_names(tmp_path: Path) -> None:
    """A stored zip that went bad after its upload: the uploader's message names the member,
    the match's public error does not."""
    from arena.referee import run_match

    path = tmp_path / "bot.zip"
    path.write_bytes(zip_of({"main.py": GOOD_MAIN, "secret-strategy/../../x.py": b""}))
    with pytest.raises(ValueError) as caught:
        run_match(
            "trnd", [str(path), "builtin:random", "builtin:greedy"], seed=1, sandbox="process"
        )
    assert "secret-strategy" in str(caught.value)
    assert "secret-strategy" not in caught.value.public  # type: ignore[attr-defined]
    public = f"match refused: {getattr(caught.value, 'public', caught.value)}"  # as arena.tasks
    assert "secret" not in public and "x.py" not in public
