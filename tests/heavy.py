"""Which tests are ``heavy``: run by CI (``pytest -m heavy``), not by the README's command.

The README's test command is the suite a contributor runs, in a few minutes, with the lean
``test`` extra. A file is heavy when it needs a part only the ``test-full`` extra installs
(tests/needs.py), or when it is slow for what it adds to the rest: a soak, a crowd, the
lowest-level waits. Each entry says why, in a reader's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

NEEDS_A_PART = "needs a part of the test-full extra"
SLOW = "slow: a process per case over a whole corpus, a crowd, a soak, or long waits"

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
    # slow for what they add to the rest of the suite (each well over 30 s of test time)
    "tests/cli/test_cli_batch.py": SLOW,  # a fleet of fake CLIs per test
    "tests/cli/test_cli_doctor.py": SLOW,
    "tests/process/test_scenarios.py": SLOW,  # every bundled scenario, in every format
    "tests/process/test_benchmarks.py": SLOW,  # the benchmarks' smoke runs
    "tests/process/test_start_errors.py": SLOW,  # descriptor exhaustion, cancelled starts
    "tests/process/test_examples.py": SLOW,  # every example script
    "tests/process/test_examples_first_use.py": SLOW,
    "tests/process/test_live_examples.py": SLOW,
    "tests/process/test_web_server.py": SLOW,
    "tests/process/test_soak.py": SLOW,
    "tests/process/test_parent_death.py": SLOW,  # programs killed, watchdogs waited on
    "tests/output/test_output_hostile.py": SLOW,
    "tests/output/test_output_types.py": SLOW,  # runs mypy
    "tests/protocol/test_chunking_properties.py": SLOW,  # hypothesis, many examples
    "tests/protocol/test_hostile_fuzz.py": SLOW,
    "tests/secrets/test_secrets_command.py": SLOW,
    # the fake agent's own tests: a contributor changing the SDK rarely needs them
    "tests/fake/test_fake_agent.py": SLOW,
    "tests/fake/test_fake_coverage.py": SLOW,
    "tests/fake/test_fake_fleet_support.py": SLOW,
    "tests/fake/test_fake_agent_cli.py": SLOW,
    "tests/fake/test_fake_hooks.py": SLOW,
    "tests/fake/test_fake_mcp.py": SLOW,
    "tests/fake/test_fake_json_scenarios.py": SLOW,
}


def lean_sample(values: Sequence[Any], keep: Iterable[Any]) -> list[Any]:
    """``values`` as parameters, those not in ``keep`` marked heavy: the README's command
    runs a file's test over a few of them (say, three hostile inputs of 27), CI over all."""
    kept = set(keep)
    missing = kept - set(values)
    assert not missing, f"lean_sample keeps values that are not there: {missing}"
    return [
        value if value in kept else pytest.param(value, marks=pytest.mark.heavy) for value in values
    ]


def heavy_reason(relative_path: str) -> str | None:
    """Why the file at this path (relative to the repository, with /) is heavy, or None."""
    for where, why in HEAVY.items():
        if relative_path == where or (where.endswith("/") and relative_path.startswith(where)):
            return why
    return None
