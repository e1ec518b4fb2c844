"""A real browser for the pages' tests: Playwright for Python driving Debian's chromium.

Import the fixtures into a test module (`from tests.browser import browser, page  # noqa: F401`):
`browser` is one headless chromium per module (starting one costs about a second), `page` a fresh
context and page per test (cookies not shared). Never a downloaded browser build: chromium is
Debian's (/usr/bin/chromium, or $POKERTABLE_CHROMIUM). Where it or Playwright is missing the tests
skip, saying which.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("POKERTABLE_CHROMIUM", "/usr/bin/chromium")
# How long an `expect` waits for the page to show something, and a click or fill for its element. Playwright's
# 5 s default was once too short for a page answering a press while the suite's other workers loaded both
# cores; a page that never shows it still fails, only later.
EXPECT_TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium, or set POKERTABLE_CHROMIUM)")
    from playwright.sync_api import expect  # noqa: PLC0415

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(EXPECT_TIMEOUT_MS)
        yield page
    finally:
        context.close()


def open_paired(page: Any, url: str, code: str) -> Any:
    """Open a page that acts (tracker, director, producer's control) and pair it with `code`, as the
    operator does: the pairing page, the code typed, then the page itself."""
    page.goto(url)
    page.fill("#code", code)
    page.click("#pairbtn")
    page.wait_for_selector("#pairbtn", state="detached")
    page.wait_for_load_state("load")  # the page itself, its scripts run
    return page
