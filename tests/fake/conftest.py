"""The fixtures the fake's tests share: ``world``, for the channel tests
(test_fake_plugins.py, test_fake_builds.py, test_fake_run_start.py,
test_fake_mcp_command.py), and ``client``, a started client of the ACP mode
(acp_client.py)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from acp_client import Client
from plugin_world import World
from proctable import is_running


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """A print run's world in ``tmp_path``; a failing test leaves no server running."""
    world = World(tmp_path)
    yield world
    for pid_file in tmp_path.glob("*.pid"):
        pid = int(pid_file.read_text().split()[0])
        if is_running(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def client() -> Iterator[Client]:
    fake = Client()
    try:
        yield fake
    finally:
        fake.kill()
