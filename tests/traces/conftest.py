"""The fixtures of the trace tests: spans recorded in memory (tests/trace_spans.py)."""

from __future__ import annotations

import pytest
from trace_spans import SWITCH, provide, spans

__all__ = ["spans"]


@pytest.fixture
def not_recorded() -> None:
    """A provider is set, but it records nothing (a sampler that drops every span)."""
    provide()
    SWITCH.on = False
