"""A short script pays for what it uses: ``import agent_sdk`` loads no event loop and no
optional part, and a plain ``run_sync`` loads neither an event loop nor the output nor the
private-config machinery (docs/benchmarks.md, "Cold start"). Each check runs in a fresh
interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest

import fake_agent

SCRIPT = """
import sys
before = set(sys.modules)
import agent_sdk
if sys.argv[1] == "run":
    agent_sdk.run_sync("hi", options=agent_sdk.AgentOptions(binary=sys.argv[2]))
print(" ".join(sorted(set(sys.modules) - before)))
"""


def _loaded(what: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, what, fake_agent.executable()],
        capture_output=True,
        text=True,
        check=True,
        env={"FAKE_AGENT_SCENARIO": "hello", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    return set(out.stdout.split())


@pytest.mark.parametrize(
    "module",
    [
        "asyncio",
        "trio",
        "ray",
        "subprocess",
        "threading",
        "json",
        "agent_sdk.fleet",
        "agent_sdk.live",
        "agent_sdk.cli",
        "agent_sdk.session",
        "agent_sdk._structured",
    ],
)
def test_importing_agent_sdk_loads_no_event_loop_and_no_optional_part(module: str) -> None:
    assert module not in _loaded("import")


def test_a_run_without_a_model_or_an_output_type_loads_neither_machinery() -> None:
    loaded = _loaded("run")
    assert "agent_sdk._transport.blocking" in loaded
    assert not loaded & {
        "agent_sdk._structured",
        "agent_sdk._output",
        "agent_sdk._transport.config_dir",
        "tempfile",
        "shutil",
    }


def test_run_sync_from_a_plain_script_loads_no_event_loop() -> None:
    loaded = _loaded("run")
    assert "agent_sdk._transport.blocking" in loaded  # it did run
    assert not loaded & {"asyncio", "trio", "anyio._backends._asyncio", "concurrent.futures"}
