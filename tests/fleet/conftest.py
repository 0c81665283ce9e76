"""The fleet's tests run real git: on any machine, with none of its configuration."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def git_setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Commits work without a global git config, and none of the machine's applies."""
    for var in ("GIT_AUTHOR", "GIT_COMMITTER"):
        monkeypatch.setenv(f"{var}_NAME", "Test")
        monkeypatch.setenv(f"{var}_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("LC_ALL", "C")  # git's messages in English, to look for them
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="session")
def cluster() -> Iterator[None]:
    """A local Ray instance for the session (it takes seconds to start): 2 CPUs, no
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
