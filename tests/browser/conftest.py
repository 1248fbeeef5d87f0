"""Browser fixtures: Debian's chromium driven by Playwright against pytest-django's live server.

No ``playwright install``: the system's ``/usr/bin/chromium`` (or ``$CHROMIUM``) is launched
directly. Without it the tests skip on a developer's machine and fail under ``CI=true``.

Set ``ARENA_SCREENSHOTS=/some/dir`` to save a full-page PNG of each page a test looks at.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import mark_folder, missing_service

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Every wait in a test gives up after this long: generous, because CI runs two test
#: processes and Docker on two cores, and a slow page there is not a broken one.
TIMEOUT_MS = 30_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here drives a chromium: ``-m browser`` selects them, ``-m "not browser"``
    leaves them out."""
    mark_folder(items, Path(__file__).parent, "browser")


def chromium_path() -> str | None:
    """``$CHROMIUM`` if set (and only it), else /usr/bin/chromium or ``chromium`` on PATH."""
    wanted = os.environ.get("CHROMIUM")
    if wanted:
        return wanted if Path(wanted).is_file() else None
    default = "/usr/bin/chromium"
    return default if Path(default).is_file() else shutil.which("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium per test module.

    Module scope (not session) on purpose: Playwright's sync API keeps an asyncio loop running
    in the main thread, and Django refuses ORM calls while one runs. So the loop lives only
    while this module's tests run, and only they get ``DJANGO_ALLOW_ASYNC_UNSAFE`` (safe here:
    the loop never runs Django code, it only talks to the browser).
    """
    path = chromium_path()
    if path is None:
        missing_service("no chromium found (apt-get install chromium, or set CHROMIUM=/path)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing_service("the playwright package is not installed (pip install -e '.[dev]')")
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    manager = sync_playwright().start()
    try:
        try:
            launched = manager.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        except Exception as exc:
            missing_service(f"chromium at {path} did not start ({exc})")
        yield launched
        launched.close()
    finally:
        manager.stop()
        if saved is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def page(browser: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    """A fresh browser context (no cookies) per test; JavaScript errors fail the test."""
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the site's CSP forbids;
    # the pages under the CSP are tested in tests/security/test_browser_csp.py.
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}, bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    js_errors: list[str] = []
    tab.on("pageerror", lambda exc: js_errors.append(str(exc)))
    try:
        yield tab
    finally:
        context.close()
    assert not js_errors, f"JavaScript errors on the page: {js_errors}"


@pytest.fixture
def csp_page(browser: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    """A tab under the site's Content-Security-Policy (``page`` bypasses it): the pages'
    scripts must run as served. CSP reports and JavaScript errors fail the test."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda exc: problems.append(str(exc)))
    tab.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    try:
        yield tab
    finally:
        context.close()
    assert not problems, problems


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _celery_inline(celery_inline: None) -> None:
    """Matches run inline (Celery eager mode), also when CI configures a broker."""


def shoot(page: Any, name: str) -> None:
    """Save a full-page screenshot when ``ARENA_SCREENSHOTS`` names a folder."""
    folder = os.environ.get("ARENA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
