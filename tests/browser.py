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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium, or set POKERTABLE_CHROMIUM)")
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
        yield context.new_page()
    finally:
        context.close()
