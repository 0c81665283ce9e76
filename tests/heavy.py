"""Which tests are ``heavy``: run by CI (``pytest -m heavy``), not by the README's command.

The README's test command is the suite a contributor runs, in a few minutes, with the lean
``test`` extra. A file is heavy when it needs a part only the ``test-full`` extra installs
(tests/needs.py), or when it is slow for what it adds to the rest: a soak, a crowd, the
lowest-level waits. Each entry says why, in a reader's words.
"""

from __future__ import annotations

NEEDS_A_PART = "needs a part of the test-full extra"
SLOW = "slow: a crowd, a soak or long waits"

HEAVY: dict[str, str] = {
    # a real terminal read back by a terminal emulator (pyte)
    "tests/cli/test_cli_pty.py": NEEDS_A_PART,
    "tests/cli/test_cli_batch_pty.py": NEEDS_A_PART,
    # the official MCP client
    "tests/extend/test_official_client.py": NEEDS_A_PART,
    "tests/extend/test_relay.py": NEEDS_A_PART,
    # the official ACP schema and SDK
    "tests/fake/test_fake_acp_schema.py": NEEDS_A_PART,
    "tests/live/test_live_schema.py": NEEDS_A_PART,
    "tests/live/test_live_official_sdk.py": NEEDS_A_PART,
    # a real Ray instance
    "tests/fleet/test_ray.py": NEEDS_A_PART,
    "tests/fleet/test_ray_caller.py": NEEDS_A_PART,
    # a real headless browser
    "tests/process/test_web_page.py": NEEDS_A_PART,
    "tests/process/test_web_page_live.py": NEEDS_A_PART,
    "tests/process/test_web_page_traces.py": NEEDS_A_PART,
    "tests/process/test_web_page_words.py": NEEDS_A_PART,
    "tests/process/test_batch_report.py": NEEDS_A_PART,
    "tests/secrets/test_secrets_web_page.py": NEEDS_A_PART,
    # the OpenTelemetry SDK
    "tests/traces/": NEEDS_A_PART,
    "tests/secrets/test_secrets_logs_and_spans.py": NEEDS_A_PART,
}


def heavy_reason(relative_path: str) -> str | None:
    """Why the file at this path (relative to the repository, with /) is heavy, or None."""
    for where, why in HEAVY.items():
        if relative_path == where or (where.endswith("/") and relative_path.startswith(where)):
            return why
    return None
