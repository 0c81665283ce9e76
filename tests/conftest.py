"""Shared fixtures: every async test runs on asyncio and on trio (anyio's pytest plugin)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_sdk import AgentOptions

pytest_plugins = ["anyio"]


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _fake_binary() -> str:
    # The console script sits next to the interpreter in a venv; fall back to PATH.
    beside = Path(sys.executable).with_name("fake-cursor-agent")
    if beside.exists():
        return str(beside)
    found = shutil.which("fake-cursor-agent")
    if found is None:
        pytest.fail("fake-cursor-agent is not installed: pip install -e '.[test]'")
    return found


@pytest.fixture(scope="session")
def fake_binary() -> str:
    """Path of the bundled fake agent's console script."""
    return _fake_binary()


@pytest.fixture
def fake_options(fake_binary: str) -> Callable[..., AgentOptions]:
    """``fake_options("tools", force=True)``: options that run the fake on a scenario."""

    def make(scenario: str | Path = "hello", **kwargs: Any) -> AgentOptions:
        env = {"FAKE_AGENT_SCENARIO": str(scenario), **kwargs.pop("env", {})}
        return AgentOptions(binary=fake_binary, env=env, **kwargs)

    return make
