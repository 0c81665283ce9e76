"""Shared fixtures: every async test runs on asyncio and on trio (anyio's pytest plugin)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pid_log import PidLog

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
def pid_log(tmp_path: Path) -> Iterator[PidLog]:
    """Where the fake logs the processes it starts (``$FAKE_AGENT_PID_LOG``); whatever a
    test asserts, none of them outlives it."""
    log = PidLog(tmp_path / "pids")
    yield log
    log.end()


@pytest.fixture
def fake_options(fake_binary: str) -> Callable[..., AgentOptions]:
    """``fake_options("tools", force=True)``: options that run the fake on a scenario."""

    def make(scenario: str | Path = "hello", **kwargs: Any) -> AgentOptions:
        env = {"FAKE_AGENT_SCENARIO": str(scenario), **kwargs.pop("env", {})}
        return AgentOptions(binary=fake_binary, env=env, **kwargs)

    return make


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A local Ray instance for a test module (it takes seconds to start; shut down after
    the module, so its processes do not load the rest of the suite): 2 CPUs, no
    dashboard, no usage stats. Its workers run this venv's Python, which has agent_sdk
    installed (editable): they import it and find the fake agent as the tests do."""
    saved = os.environ.get("RAY_USAGE_STATS_ENABLED")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    import ray  # the test extra installs it; only the Ray tests ask for this

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        if saved is None:
            os.environ.pop("RAY_USAGE_STATS_ENABLED", None)
        else:
            os.environ["RAY_USAGE_STATS_ENABLED"] = saved
