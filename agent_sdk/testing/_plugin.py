"""The pytest plugin of the test kit: the ``fake_cursor_agent`` fixture and the
``agent_sdk_scenarios`` ini option. pytest loads it from the entry point
(``[project.entry-points.pytest11]`` in pyproject.toml), or with ``-p agent_sdk`` where
plugins are not loaded on their own (``PYTEST_DISABLE_PLUGIN_AUTOLOAD``). The only module
of ``agent_sdk.testing`` that imports pytest (docs/testing.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ._fake import FakeAgent

__all__ = ["fake_cursor_agent", "pytest_addoption"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ini option ``agent_sdk_scenarios``: directories of the user's scenarios."""
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
