"""Which cursor-agent ``agent-sdk`` runs (docs/cli.md): ``--version`` names it, a missing
one exits 2 suggesting ``--fake``, ``--fake-if-missing`` runs the bundled fake only when
none is installed, and a run of the fake says it was scripted and changed nothing.
"""

from __future__ import annotations

from pathlib import Path

from cli_process import cli

import agent_sdk

FAKE_VERSION = "cursor-agent 2026.10.01-fake0001"  # what the bundled fake says it is


def test_version_names_agent_sdk_and_the_cli_it_would_run() -> None:
    done = cli("--fake", "--version")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"agent-sdk {agent_sdk.__version__}", FAKE_VERSION]


def test_missing_binary_exits_2_suggesting_fake() -> None:
    done = cli("--binary", "/nonexistent", "hi")
    assert done.returncode == 2
    assert "agent-sdk: error: --binary is '/nonexistent'" in done.stderr
    assert "the binary with --binary PATH or the CURSOR_AGENT_BIN" in done.stderr
    assert done.stderr.count("agent-sdk --fake [SCENARIO] PROMPT") == 1
    assert "AgentOptions" not in done.stderr
    assert "fake_agent.executable()" not in done.stderr


def test_no_cursor_agent_found_exits_2_suggesting_fake(tmp_path: Path) -> None:
    done = cli("hi", PATH=str(tmp_path), HOME=str(tmp_path))
    assert done.returncode == 2
    assert "agent-sdk: error: cursor-agent was not found" in done.stderr
    assert "agent-sdk --fake [SCENARIO] PROMPT" in done.stderr
    assert "AgentOptions" not in done.stderr


# --- --fake-if-missing -----------------------------------------------------------------
def test_fake_if_missing_runs_the_fake_when_cursor_agent_is_not_installed(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    done = cli("--fake-if-missing", "add a test", PATH=str(empty), HOME=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "running the bundled fake agent" in done.stderr
    assert "Both tests pass." in done.stdout  # the default scenario, `demo`
    assert "that was the bundled fake agent: it played a scripted run" in done.stderr


def test_a_run_of_the_fake_says_it_was_scripted_and_changed_nothing() -> None:
    done = cli("--fake", "Add a test for cart totals")
    assert done.returncode == 0, done.stderr
    assert "▸ $ pytest -q tests/test_cart.py" in done.stderr  # it shows tool calls
    assert done.stderr.splitlines()[-1] == (
        "agent-sdk: that was the bundled fake agent: it played a scripted run, changed no "
        "file and asked no model; install cursor-agent for the real agent"
    )


def test_fake_if_missing_prefers_an_installed_cursor_agent(tmp_path: Path) -> None:
    real = tmp_path / "cursor-agent"
    real.write_text("#!/bin/sh\necho 'the real one' >&2\nexit 3\n")
    real.chmod(0o755)
    done = cli("--fake-if-missing", "add a test", CURSOR_AGENT_BIN=str(real))
    assert done.returncode == 1
    assert "the real one" in done.stderr
    assert "bundled fake agent" not in done.stderr
