"""The fake agent wired into one test: :class:`FakeAgent`, what the pytest fixture
``fake_cursor_agent`` (:mod:`._plugin`) gives a test. It needs no pytest itself: the
fixture hands it pytest's ``monkeypatch``, through which every change it makes to the
environment is undone after the test.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import fake_agent

from ..options import AgentOptions

if TYPE_CHECKING:
    import pytest

__all__ = ["FakeAgent"]


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
