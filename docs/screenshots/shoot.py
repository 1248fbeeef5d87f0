"""Take the screenshots in docs/screenshots/ from a running, demo-filled site.

    ARENA_DATA_DIR=/tmp/shots .venv/bin/python manage.py demo --matches 30
    ARENA_DATA_DIR=/tmp/shots .venv/bin/python manage.py shell -c "from django.contrib.auth.models \
        import User; User.objects.create_user('ada', password='pw-ada-12345')"
    ARENA_DATA_DIR=/tmp/shots .venv/bin/python manage.py serve 8765 &
    .venv/bin/python docs/screenshots/shoot.py http://127.0.0.1:8765 ada pw-ada-12345

It logs in, starts a TRND game with the person in seat 0 (the play page, once the board
asks for a decision), opens the bot page of TRND's built-in "greedy" and the latest demo
tournament of TRND, and saves play.png, bot.png and tournament.png at 1280 x 900 beside this
file. Chromium: /usr/bin/chromium, or $CHROMIUM.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

HERE = Path(__file__).resolve().parent
SIZE: ViewportSize = {"width": 1280, "height": 900}
WAIT_MS = 60_000


def log_in(page: Page, user: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", user)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def shoot_play(page: Page) -> None:
    page.goto("/play/new/?game=trnd")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/*/")
    # The board is drawn and a decision is asked for: the action buttons are there.
    page.locator("#play-actions button").first.wait_for(state="visible", timeout=WAIT_MS)
    page.screenshot(path=str(HERE / "play.png"))


def shoot_bot(page: Page) -> None:
    page.goto("/games/trnd/")
    page.locator("a.bot-name", has_text=re.compile(r"^greedy$")).first.click()
    page.wait_for_url("**/bots/*/")
    page.screenshot(path=str(HERE / "bot.png"))


def shoot_tournament(page: Page) -> None:
    page.goto("/tournaments/")
    page.get_by_role("link", name="Demo TRND").first.click()
    page.wait_for_url("**/tournaments/*/")
    page.screenshot(path=str(HERE / "tournament.png"))


def main(base_url: str, user: str, password: str) -> None:
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        context = browser.new_context(base_url=base_url, viewport=SIZE)
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        log_in(page, user, password)
        shoot_tournament(page)
        shoot_bot(page)
        shoot_play(page)
        browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: shoot.py BASE_URL USER PASSWORD")
    main(*sys.argv[1:])
