"""The live agent's tests: options that run the fake's ACP mode in a fresh directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_env import clean_env

from agent_sdk import AgentOptions


@pytest.fixture
def options(fake_binary: str, tmp_path: Path) -> AgentOptions:
    """The fake in ``tmp_path``; no inherited setting chooses its scenario or login."""
    return AgentOptions(binary=fake_binary, cwd=tmp_path, env=clean_env())
