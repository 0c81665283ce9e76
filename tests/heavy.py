"""Which tests are ``heavy``: run by CI (``pytest -m heavy``), not by the README's command.

The README's test command is the suite a contributor runs, in a few minutes, with the lean
``test`` extra. A file is heavy when it needs a part only the ``test-full`` extra installs
(tests/needs.py), or when it is slow for what it adds to the rest: a soak, a crowd, a
process per case. Most tests against real processes are heavy (a folder in ``HEAVY``),
except one smoke file of each layer (``LEAN``). Each entry says why, in a reader's words.

A heavy file named on the command line is still deselected: ``pytest -m heavy FILE`` (or
``-m ""``) runs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

NEEDS_A_PART = "needs a part of the test-full extra"
SLOW = "slow: a process per case over a whole corpus, a crowd, a soak, or long waits"
PROCESSES = "real processes, many per test: CI's (a few files stay in the README's command)"

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
    "tests/fleet/test_ray_backend.py": NEEDS_A_PART,
    "tests/fleet/test_ray_outcomes.py": NEEDS_A_PART,
    "tests/fleet/test_ray_cancel.py": NEEDS_A_PART,
    "tests/fleet/test_ray_caller.py": NEEDS_A_PART,
    "tests/fleet/test_ray_background.py": NEEDS_A_PART,
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
    # `agent-sdk batch`: a fleet of fake CLIs per test (its file's checks: a CLI per case)
    "tests/cli/test_cli_batch_tasks_file.py": SLOW,
    "tests/cli/test_cli_batch_runs.py": SLOW,
    "tests/cli/test_cli_batch_signals.py": SLOW,
    "tests/cli/test_cli_batch_worktrees.py": SLOW,
    "tests/cli/test_cli_doctor.py": SLOW,
    "tests/process/test_scenarios.py": SLOW,  # every bundled scenario, in every format
    "tests/process/test_benchmarks.py": SLOW,  # the benchmarks' smoke runs
    "tests/process/test_start_errors.py": SLOW,  # descriptor exhaustion, cancelled starts
    "tests/process/test_examples.py": SLOW,  # every example script
    "tests/process/test_example_chat_bot.py": SLOW,
    "tests/process/test_example_batch.py": SLOW,
    "tests/process/test_example_sse_server.py": SLOW,
    "tests/process/test_examples_first_use.py": SLOW,
    "tests/process/test_live_examples.py": SLOW,
    "tests/process/test_web_server.py": SLOW,
    "tests/process/test_soak.py": SLOW,
    "tests/process/test_parent_death.py": SLOW,  # programs killed, watchdogs waited on
    "tests/run/test_output_hostile.py": SLOW,
    "tests/run/test_output_types.py": SLOW,  # runs mypy
    "tests/wire/test_chunking_properties.py": SLOW,  # hypothesis, many examples
    "tests/wire/test_hostile_fuzz.py": SLOW,
    "tests/secrets/test_secrets_command.py": SLOW,
    # the command line as a process, case by case
    "tests/cli/test_cli_run.py": SLOW,
    "tests/cli/test_cli_signals.py": SLOW,
    "tests/cli/test_cli_colours.py": SLOW,
    "tests/cli/test_cli_usage_errors.py": SLOW,
    "tests/cli/test_cli_which_agent.py": SLOW,
    "tests/live/test_live_shutdown.py": SLOW,
    "tests/checkpoints/test_owners.py": SLOW,  # owners killed mid-run and mid-snapshot
    "tests/checkpoints/test_hostile_trees.py": SLOW,
    # Whole folders of real processes: the README's command keeps a few files of each
    # (LEAN below), CI runs them all.
    "tests/process/": PROCESSES,
    "tests/secrets/": PROCESSES,  # the planted key, on every surface
    "tests/fake/": PROCESSES,  # the fake agent's own tests
}

# Files of a heavy folder that the README's command still runs: one smoke test of each
# layer against real processes.
LEAN: frozenset[str] = frozenset(
    {
        "tests/process/test_run.py",  # a run against the fake, end to end
        "tests/process/test_lifecycle.py",  # the process guarantees
        "tests/process/test_testing_kit.py",
        "tests/process/test_cold_imports.py",
        "tests/fake/test_fake_agent_units.py",
    }
)


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
    if relative_path in LEAN:
        return None
    for where, why in HEAVY.items():
        if relative_path == where or (where.endswith("/") and relative_path.startswith(where)):
            return why
    return None
