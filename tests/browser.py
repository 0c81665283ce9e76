"""Headless Chromium for the tests of pages: Debian's package, driven by Playwright.

``chromium()`` yields a launched browser, or skips the test when there is none, except
under CI, where a missing browser fails it (CI installs ``chromium``: .ci/run).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra has it; a bare environment may not
    sync_playwright = None  # type: ignore[assignment]

REPO = Path(__file__).resolve().parents[1]
SCREENSHOTS = REPO / "build" / "screenshots"
CHROMIUM = "/usr/bin/chromium"  # Debian's package
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox will not start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 20_000  # generous bounds for a browser's waits: they only stop a broken page


def unavailable() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if sync_playwright is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def skip_without_browser() -> None:
    """Skip the test when no browser can run here; fail it under CI."""
    reason = unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium (skipped, or failed under CI, when there is none)."""
    skip_without_browser()
    assert sync_playwright is not None
    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    with sync_playwright() as playwright:
        # A launch makes a fresh profile (user data dir) and removes it afterwards.
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()
