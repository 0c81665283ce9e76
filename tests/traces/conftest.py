"""The fixtures of the trace tests: spans recorded in memory (tests/trace_spans.py), and
the live agent's options (as tests/live/conftest.py makes them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_env import clean_env
from trace_spans import SWITCH, provide, spans

from agent_sdk import AgentOptions

__all__ = ["spans"]


@pytest.fixture
def not_recorded() -> None:
    """A provider is set, but it records nothing (a sampler that drops every span)."""
    provide()
    SWITCH.on = False


@pytest.fixture
def options(fake_binary: str, tmp_path: Path) -> AgentOptions:
    """The fake in ``tmp_path``; no inherited setting chooses its scenario or login."""
    return AgentOptions(binary=fake_binary, cwd=tmp_path, env=clean_env())
