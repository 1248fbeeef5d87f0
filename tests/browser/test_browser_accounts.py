"""A newcomer's path: sign up, log out, log in, upload a bot through the form and see its
versions; a bad upload gets a clear message on the form, never a stack trace."""

from __future__ import annotations

from typing import Any

from bots.models import Bot
from catalog.services import sync_games

from tests.site_fixtures import BOT_SOURCE

from .conftest import shoot

PASSWORD = "Tr1cky-meeple-pw"


def sign_up(page: Any, username: str) -> None:
    page.goto("/")
    page.locator("header.site").get_by_role("link", name="Sign up").click()
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url("**/")


def upload_file(page: Any, name: str, data: bytes) -> None:
    page.set_input_files(
        "#id_code", files=[{"name": name, "mimeType": "text/plain", "buffer": data}]
    )


def test_sign_up_log_in_and_upload_a_bot(page: Any, transactional_db: None) -> None:
    sync_games()
    sign_up(page, "carol")
    header = page.locator("header.site")
    assert "carol" in header.inner_text()
    header.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/")
    assert "carol" not in header.inner_text()

    # Uploading needs an account: the form sends a visitor to log in, then back.
    header.get_by_role("link", name="Upload a bot").click()
    page.wait_for_url("**/accounts/login/?next=/bots/new/")
    page.fill("#id_username", "carol")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/bots/new/")
    shoot(page, "upload")

    page.select_option("#id_game", label="TRND")
    page.fill("#id_name", "first-legal")
    page.fill("#id_description", "Always plays the first legal action.")
    upload_file(page, "main.py", BOT_SOURCE)
    page.get_by_role("button", name="Upload").click()
    bot = Bot.objects.get(owner__username="carol")
    page.wait_for_url(f"**/bots/{bot.pk}/")
    assert "first-legal v1 is uploaded" in page.locator(".messages").inner_text()
    versions = page.locator("table.versions tbody tr td:first-child")
    # The version and its ladder state ("playing" once it qualified).
    assert [t.split()[0] for t in versions.all_inner_texts()] == ["v1"]
    shoot(page, "bot")

    page.get_by_role("link", name="Upload a new version").click()
    upload_file(page, "main.py", BOT_SOURCE + b"# second\n")
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(f"**/bots/{bot.pk}/")
    assert [t.split()[0] for t in versions.all_inner_texts()] == ["v2", "v1"]
    sizes = page.locator("table.versions tbody tr td:nth-child(3)").all_inner_texts()
    assert all(s.strip() for s in sizes)


def test_bad_uploads_show_a_clear_error_on_the_form(page: Any, transactional_db: None) -> None:
    sync_games()
    sign_up(page, "dave")
    page.goto("/bots/new/")
    page.fill("#id_name", "broken")
    cases = [
        # Structure only: whether it compiles is a worker's check, shown on the bot's page.
        ("main.py", b"x = '\xe9'\n", "main.py is not UTF-8 text (byte 5)"),
        ("notes.txt", b"hello", "'notes.txt' is neither a bot's source file"),
        ("main.py", b"", "The submitted file is empty."),
        ("bot.zip", b"PK\x03\x04 not really a zip", "The file is not a valid zip archive."),
    ]
    for name, data, message in cases:
        upload_file(page, name, data)
        with page.expect_navigation() as nav:
            page.get_by_role("button", name="Upload").click()
        assert nav.value.status == 400  # the form again, with its error (no 500, nothing stored)
        errors = page.locator(".errorlist").inner_text()
        assert message in errors, errors
        text = page.locator("body").inner_text()
        assert "Traceback" not in text and "Exception" not in text
        # The form keeps what was typed, so only the file needs choosing again.
        assert page.locator("#id_name").input_value() == "broken"
    shoot(page, "upload-error")
    assert not Bot.objects.filter(name="broken").exists()
