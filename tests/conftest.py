"""Shared fixtures: every async test runs on asyncio and on trio (anyio's pytest plugin)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import fake_agent
from agent_sdk import AgentOptions

pytest_plugins = ["anyio"]


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def fake_binary() -> str:
    """Path of the bundled fake agent's console script."""
    return fake_agent.executable()


@pytest.fixture
def fake_options(fake_binary: str) -> Callable[..., AgentOptions]:
    """``fake_options("tools", force=True)``: options that run the fake on a scenario."""

    def make(scenario: str | Path = "hello", **kwargs: Any) -> AgentOptions:
        env = {"FAKE_AGENT_SCENARIO": str(scenario), **kwargs.pop("env", {})}
        return AgentOptions(binary=fake_binary, env=env, **kwargs)

    return make
