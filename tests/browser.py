"""Headless Chromium for the tests of pages: Debian's package, driven by Playwright.

``chromium()`` yields a launched browser, or skips the test when there is none, except
under CI, where a missing browser fails it (CI installs ``chromium``: .ci/run).
"""

from __future__ import annotations

import contextlib
import http.server
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Response

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


# --- a page of another origin, attacking a local server --------------------------------
# Served from another port of 127.0.0.1 (another origin, the same "site"), it sends what
# any website can send without the server's leave, each way once: an <img> GET, a form
# POST, a no-cors fetch POST, and a cors fetch with a JSON body (which needs a preflight),
# to start a run, to stop the run ?run= names and to answer its first question
# "allow always". Opened as ?target=http://127.0.0.1:PORT&run=ID.
ATTACK_PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>another site</title></head><body>
<script>
"use strict";
const q = new URLSearchParams(location.search);
const target = q.get("target");
const run = encodeURIComponent(q.get("run") || "none");
const start = JSON.stringify({ prompt: "scenario:stall started by another site" });
const img = document.createElement("img");
img.src = target + "/run?prompt=scenario%3Astall";
document.body.append(img);
const urls = [
  "/run",
  "/stop?run=" + run,
  "/permission?run=" + run + "&request=1&decision=allow_always",
];
urls.forEach((url, i) => {
  fetch(target + url, { method: "POST", mode: "no-cors", body: start,
    headers: { "Content-Type": "text/plain" } }).catch(() => {});
  const frame = document.createElement("iframe");
  frame.name = "sink" + i;
  document.body.append(frame);
  const form = document.createElement("form");
  form.method = "post";
  form.enctype = "text/plain";
  form.action = target + url;
  form.target = frame.name;
  const field = document.createElement("input");
  field.name = start.slice(0, -2) + '", "x": "';
  field.value = '"}';
  form.append(field);
  document.body.append(form);
  form.submit();
});
fetch(target + "/run", { method: "POST", body: start,
  headers: { "Content-Type": "application/json" } }).catch(() => {});
</script></body></html>
"""
#: What the attack page sends the server: (method, path) once each, the preflight aside.
ATTACKS = 1 + 3 * 2


@contextlib.contextmanager
def other_origin() -> Iterator[str]:
    """A server of :data:`ATTACK_PAGE` on another port of 127.0.0.1: its base URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(ATTACK_PAGE)))
            self.end_headers()
            self.wfile.write(ATTACK_PAGE)

        def log_message(self, format: str, *args: object) -> None:
            pass  # quiet

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def attack(browser: Browser, target: str, run_id: str) -> list[tuple[str, str, int]]:
    """Open the attack page of another origin against ``target`` and wait until the
    server has answered each of its requests: (method, path, status) of each."""
    answered: list[tuple[str, str, int]] = []

    def note(response: Response) -> None:
        if response.url.startswith(target):  # not the attack page itself
            path = response.url.removeprefix(target)
            answered.append((response.request.method, path, response.status))

    with other_origin() as site:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.on("response", note)
            page.goto(f"{site}/?target={target}&run={run_id}")
            deadline = time.monotonic() + WAIT_MS / 1000
            while len([a for a in answered if a[0] != "OPTIONS"]) < ATTACKS:
                assert time.monotonic() < deadline, f"the server answered only {answered}"
                page.wait_for_timeout(50)
        finally:
            context.close()
    return answered
