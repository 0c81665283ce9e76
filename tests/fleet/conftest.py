"""The fleet's tests run real git: on any machine, with none of its configuration."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import isolate_git


@pytest.fixture(autouse=True)
def git_setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path)


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
