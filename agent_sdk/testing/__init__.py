"""Test kit for code built on agent_sdk: the bundled fake agent as a pytest fixture,
recording of real runs as scenario files, and :class:`MemoryTransport`, a scripted CLI
played in-process (``run(prompt, transport=MemoryTransport([...]))``); for the live
agent, ``memory_acp.MemoryAcpTransport`` (``LiveAgent(transport=...)``).

The fixture ``fake_cursor_agent`` is registered as a pytest plugin when agent_sdk is
installed. It points every run of the test (``run()``, ``run_sync()``, ``Session``...)
with default options at the fake agent, which plays a scenario: one of the bundled ones,
or your own ``.ndjson`` files (see ``fake_agent/scenarios/README.md`` for the format;
:func:`record` writes one from a real run)::

    def test_bot_replies(fake_cursor_agent):
        fake_cursor_agent.use("tools")             # or a path, or a name in your dirs
        assert "test" in my_bot.answer("add a test")

Name your scenario directories in pytest's configuration to use files by name::

    [tool.pytest.ini_options]
    agent_sdk_scenarios = ["tests/scenarios"]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import fake_agent

from ..options import AgentOptions
from ._record import record
from .memory import Exit, MemoryTransport, Output, Pause, Stderr, Step

__all__ = [
    "Exit",
    "FakeAgent",
    "MemoryTransport",
    "Output",
    "Pause",
    "Stderr",
    "Step",
    "fake_cursor_agent",
    "record",
]


class FakeAgent:
    """The fake agent, wired into one test through environment variables.

    Attributes:
        binary: the fake's executable (also set as ``CURSOR_AGENT_BIN``).
        scenario_dirs: where scenario names are looked up before the bundled ones.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch, scenario_dirs: list[Path]) -> None:
        self._monkeypatch = monkeypatch
        self.scenario_dirs = scenario_dirs
        self.binary = fake_agent.executable()
        monkeypatch.setenv("CURSOR_AGENT_BIN", self.binary)
        monkeypatch.delenv("FAKE_AGENT_SCENARIO", raising=False)
        monkeypatch.delenv("FAKE_AGENT_REPLY", raising=False)

    def scenario(self, scenario: str | os.PathLike[str]) -> Path:
        """The file of a scenario: a path, a name in :attr:`scenario_dirs`, or a bundled one.

        Raises:
            LookupError: no such scenario (a ``fake_agent.ScenarioError``); the message
                lists the names known.
        """
        return fake_agent.resolve_scenario(scenario, self.scenario_dirs)

    def use(self, scenario: str | os.PathLike[str]) -> Path:
        """Play this scenario in every run of the test from now on; returns its file."""
        path = self.scenario(scenario)
        self._monkeypatch.setenv("FAKE_AGENT_SCENARIO", str(path.resolve()))
        return path

    def reply(self, text: str) -> None:
        """End every run of the test from now on with this reply (the last assistant
        message and the result's text), whatever the scenario: a test of your own
        ``output_type`` passes the JSON it wants checked, a fenced block or bare::

            fake_cursor_agent.reply('{"verdict": "approve", "summary": "ok", "findings": []}')
            assert run_sync("Review", output_type=Review).output.verdict == "approve"

        Without it, a run that asks for an ``output_type`` gets an example value of the
        type's schema (docs/output.md, "Testing on the fake agent").
        """
        self._monkeypatch.setenv("FAKE_AGENT_REPLY", text)

    def options(
        self, scenario: str | os.PathLike[str] | None = None, **kwargs: Any
    ) -> AgentOptions:
        """``AgentOptions`` for the fake, playing ``scenario`` in that run only."""
        env = dict(kwargs.pop("env", None) or {})
        if scenario is not None:
            env["FAKE_AGENT_SCENARIO"] = str(self.scenario(scenario).resolve())
        return AgentOptions(binary=self.binary, env=env, **kwargs)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "agent_sdk_scenarios",
        "directories of fake_agent scenario files (.ndjson) for fake_cursor_agent",
        type="paths",
        default=[],
    )


@pytest.fixture
def fake_cursor_agent(monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config) -> FakeAgent:
    """agent_sdk pointed at the bundled fake agent for this test (see :class:`FakeAgent`)."""
    dirs = [Path(p) for p in pytestconfig.getini("agent_sdk_scenarios")]
    return FakeAgent(monkeypatch, dirs)
