"""Spans caught in memory: the OTel SDK (a test extra) as the program's provider.

The provider is set once for the process (OTel allows one), with a sampler that records
only while a test asks for spans (the ``spans`` fixture): the runs of other tests in the
same process get non-recording spans, which is the SDK's "no provider" cost. Used by
tests/traces/ and by the planted-key test of tests/secrets/.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from needs import need

need("opentelemetry.sdk.trace", "the OpenTelemetry SDK, to record spans in memory")

from opentelemetry import trace  # noqa: E402
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)
from opentelemetry.sdk.trace.sampling import Decision, Sampler, SamplingResult  # noqa: E402


class _Switch(Sampler):
    """Records every span while on, none while off."""

    on = False

    def should_sample(
        self,
        parent_context: Any,
        trace_id: int,
        name: str,
        kind: Any = None,
        attributes: Any = None,
        links: Any = None,
        trace_state: Any = None,
    ) -> SamplingResult:
        if not self.on:
            return SamplingResult(Decision.DROP)
        # The span's attributes are those the sampler returns.
        return SamplingResult(Decision.RECORD_AND_SAMPLE, attributes)

    def get_description(self) -> str:
        return "switch"


SWITCH = _Switch()
EXPORTER = InMemorySpanExporter()


def provide() -> None:
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        provider = TracerProvider(sampler=SWITCH)
        provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
        trace.set_tracer_provider(provider)


class Spans:
    """The spans ended since the test began."""

    def all(self) -> tuple[ReadableSpan, ...]:
        return tuple(EXPORTER.get_finished_spans())

    def named(self, prefix: str) -> list[ReadableSpan]:
        return [span for span in self.all() if span.name.startswith(prefix)]

    def one(self, prefix: str) -> ReadableSpan:
        (span,) = self.named(prefix)
        return span

    @staticmethod
    def children(parent: ReadableSpan, among: Sequence[ReadableSpan]) -> list[ReadableSpan]:
        return [
            span
            for span in among
            if span.parent is not None and span.parent.span_id == parent.context.span_id
        ]


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
