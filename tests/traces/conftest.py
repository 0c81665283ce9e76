"""The fixtures of the trace tests: spans recorded in memory (trace_spans.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from trace_spans import EXPORTER, SWITCH, Spans, provide


@pytest.fixture
def spans() -> Iterator[Spans]:
    """Record spans for this test; what ended is in the fixture's value."""
    provide()
    EXPORTER.clear()
    SWITCH.on = True
    try:
        yield Spans()
    finally:
        SWITCH.on = False
        EXPORTER.clear()


@pytest.fixture
def not_recorded() -> None:
    """A provider is set, but it records nothing (a sampler that drops every span)."""
    provide()
    SWITCH.on = False
