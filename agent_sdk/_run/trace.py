"""OpenTelemetry spans: one per run, live turn and fleet task, one per tool call in them
(docs/traces.md).

Only the OpenTelemetry API is used (``opentelemetry-api``, the ``otel`` extra), through
``get_tracer("agent_sdk", version)``: the program chooses a ``TracerProvider``, and until it
does every span is a no-op. This module is loaded only when the program has imported
``opentelemetry.trace`` (:data:`TRACE_MODULE` in ``sys.modules``): a program that has not
cannot have set a provider, so it pays neither the API's import (about 40 ms) nor any work
per run (docs/benchmarks.md, "Traces").

What never goes into an attribute: the prompt, the reply, a tool's arguments or result,
and any secret of the run. A tool call's label (``read src/cart.py``, ``$ pytest -q``) is
shown with the run's secrets masked and cut to :data:`MAX_LABEL`; an error is recorded by
its class and its message, which is redacted (``_options/redaction.py``), never by its
traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..events import ToolCallStarted

if TYPE_CHECKING:
    from types import ModuleType

    from opentelemetry.trace import Span

    from .._options.agent_options import AgentOptions
    from .._options.redaction import Redaction
    from .._transport.base import Transport
    from .._wire.stream import Stream
    from ..events import ToolCallCompleted, Usage
    from ..result import PlainResult

__all__ = [
    "MAX_LABEL",
    "TRACE_MODULE",
    "AgentSpan",
    "TaskSpan",
    "agent_span",
    "run_span",
    "task_span",
]

TRACE_MODULE = "opentelemetry.trace"
MAX_LABEL = 200  # characters of a tool call's label kept: what a person reads, not a dump
MAX_MESSAGE = 1000  # characters of an error's message kept
AGENT_NAME = "cursor-agent"
PROVIDER = "cursor"

Redact = Callable[[str], str]


def _tracer(trace: ModuleType) -> Any:
    version = getattr(sys.modules.get("agent_sdk"), "__version__", None)
    return trace.get_tracer("agent_sdk", version)


def _error_type(error: BaseException) -> str:
    return type(error).__name__


def _record_error(trace: ModuleType, span: Span, error: BaseException, redact: Redact) -> None:
    """``error`` on ``span``: its class, and its message redacted; no traceback (a frame's
    source line is the program's, and a chained error's message was never redacted)."""
    message = redact(str(error))[:MAX_MESSAGE]
    span.set_attribute("error.type", _error_type(error))
    span.add_event(
        "exception", {"exception.type": _error_type(error), "exception.message": message}
    )
    span.set_status(trace.Status(trace.StatusCode.ERROR, message))


def _usage_attributes(usage: Usage | None) -> dict[str, int]:
    if usage is None:
        return {}
    return {
        "gen_ai.usage.input_tokens": usage.input_tokens,
        "gen_ai.usage.output_tokens": usage.output_tokens,
        "gen_ai.usage.cache_read.input_tokens": usage.cache_read_tokens,
        "gen_ai.usage.cache_creation.input_tokens": usage.cache_write_tokens,
    }


class AgentSpan:
    """The span of one run (print mode) or one live turn, and the spans of its tool calls,
    children of it, each open from its ``started`` event to its ``completed`` one."""

    __slots__ = ("_calls", "_context", "_ended", "_redact", "_span", "_trace", "_tracer")

    def __init__(self, trace: ModuleType, tracer: Any, span: Span, redact: Redact) -> None:
        self._trace = trace
        self._tracer = tracer
        self._span = span
        self._redact = redact
        self._context = trace.set_span_in_context(span)
        # The open calls: their span, and their start (described only if the run ends
        # before the call does).
        self._calls: dict[str, tuple[Span, ToolCallStarted]] = {}
        self._ended = False

    def tool_calls(self, events: Sequence[ToolCallStarted | ToolCallCompleted]) -> None:
        """Tool-call events, in their order: a start opens a span, a completion ends it.

        A start costs a span and nothing else: the payload is read once, at the
        completion, which has the arguments too (and a live call's real ones; a call
        started again is the same span)."""
        for event in events:
            if type(event) is ToolCallStarted:
                if event.call_id not in self._calls:
                    self._calls[event.call_id] = (self._open(event), event)
            else:
                self._close(event)  # type: ignore[arg-type]  # the other kind: completed

    def _open(self, event: ToolCallStarted | ToolCallCompleted) -> Span:
        span: Span = self._tracer.start_span(
            "execute_tool",
            context=self._context,
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.call.id": event.call_id,
            },
        )
        return span

    def _described(
        self, span: Span, event: ToolCallStarted | ToolCallCompleted
    ) -> dict[str, str | bool | int]:
        kind = event.kind or "unknown"
        span.update_name(f"execute_tool {kind}")
        return {
            "gen_ai.tool.name": kind,
            "agent_sdk.tool.label": self._redact(event.label)[:MAX_LABEL],
        }

    def _close(self, event: ToolCallCompleted) -> None:
        found = self._calls.pop(event.call_id, None)
        # A completion whose start was not seen: a span of its own, opened now.
        span = found[0] if found is not None else self._open(event)
        status, ok, exit_code = event.status, event.ok, event.exit_code
        attributes = self._described(span, event)
        attributes["agent_sdk.tool.outcome"] = event.outcome or ""
        attributes["agent_sdk.tool.status"] = status
        attributes["agent_sdk.tool.ok"] = ok
        if exit_code is not None:
            attributes["agent_sdk.tool.exit_code"] = exit_code
        if not ok and status != "blocked":  # blocked is a decision, not a failure
            reason = (event.outcome if status == "failed" else "exit_code") or "error"
            attributes["error.type"] = reason
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, reason))
        span.set_attributes(attributes)
        span.end()

    def end(
        self,
        outcome: str,
        error: BaseException | None = None,
        *,
        attributes: Mapping[str, Any] | None = None,
        usage: Usage | None = None,
    ) -> None:
        """End the span (once: later calls do nothing), with the calls still open.

        Args:
            outcome: ``agent_sdk.outcome``: ``succeeded``, ``failed``, ``closed``,
                ``cancelled``...
            error: what it failed with (an ``AgentError``'s message is already redacted,
                and is redacted again).
            attributes: more attributes (the session id, the exit code...); ``None``
                values are left out.
            usage: the token counts, when the CLI sent them.
        """
        if self._ended:
            return
        self._ended = True
        span = self._span
        for call, started in self._calls.values():
            described = self._described(call, started)  # not ``attributes``: the run's
            described["agent_sdk.tool.outcome"] = "unfinished"
            call.set_attributes(described)
            call.end()
        self._calls.clear()
        span.set_attribute("agent_sdk.outcome", outcome)
        for name, value in {**(attributes or {}), **_usage_attributes(usage)}.items():
            if value is not None:
                span.set_attribute(name, value)
        if error is not None:
            if isinstance(error, Exception):
                _record_error(self._trace, span, error, self._redact)
            else:  # a cancellation or an interrupt: not the run's failure
                span.set_attribute("error.type", _error_type(error))
        span.end()

    def end_run(
        self,
        state: str,
        error: BaseException | None,
        stream: Stream,
        transport: Transport | None,
        result: PlainResult | None,
    ) -> None:
        """End a print-mode run's span: ``state`` is the run's (``engine.State``) as it
        ended; the usage is its result's, else its result event's (a failed run's)."""
        outcome = _RUN_OUTCOMES.get(state, "abandoned")  # abandoned: garbage-collected
        if error is not None and not isinstance(error, Exception):
            outcome = "cancelled"
        usage = result.usage if result is not None else None
        if usage is None and stream.result_event is not None:
            usage = stream.result_event.usage
        attributes = {
            "gen_ai.conversation.id": stream.session_id,
            "agent_sdk.exit_code": transport.returncode if transport is not None else None,
            "agent_sdk.events": stream.received,
        }
        self.end(outcome, error, attributes=attributes, usage=usage)


_RUN_OUTCOMES = {"done": "succeeded", "closed": "closed", "failed": "failed"}


def agent_span(
    mode: str, *, model: str | None, session_id: str | None, redact: Redact
) -> AgentSpan | None:
    """The span of a run (``mode`` ``"print"``) or a live turn (``"live"``) starting now,
    child of the current span; ``None`` when nothing records it (no provider set, or not
    sampled): its tool calls then cost nothing either."""
    trace = sys.modules.get(TRACE_MODULE)
    if trace is None:
        return None
    tracer = _tracer(trace)
    attributes = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": PROVIDER,
        "gen_ai.agent.name": AGENT_NAME,
        "agent_sdk.mode": mode,
    }
    if model is not None:
        attributes["gen_ai.request.model"] = model
    if session_id is not None:
        attributes["gen_ai.conversation.id"] = session_id
    span: Span = tracer.start_span(
        f"invoke_agent {AGENT_NAME}", kind=trace.SpanKind.CLIENT, attributes=attributes
    )
    if not span.is_recording():
        return None
    return AgentSpan(trace, tracer, span, redact)


def run_span(options: AgentOptions, redaction: Redaction, stream: Stream) -> AgentSpan | None:
    """The span of a print-mode run starting now, watching the tool calls of its
    ``stream``; ``None`` when nothing records it."""
    span = agent_span(
        "print",
        model=options.model,
        session_id=options.resume or options.new_session_id,
        redact=redaction.text,
    )
    if span is not None:
        stream.watch_tool_calls(span.tool_calls)
    return span


class TaskSpan:
    """The span of one fleet task, current while its runs go (their spans are its
    children, one per attempt); each retry an event on it."""

    __slots__ = ("_ended", "_redact", "_retries", "_span", "_trace")

    def __init__(self, trace: ModuleType, span: Span, redact: Redact) -> None:
        self._trace = trace
        self._span = span
        self._redact = redact
        self._retries = 0
        self._ended = False

    def retry(self, attempt: int, error: BaseException, delay: float, resumed: bool) -> None:
        """Run number ``attempt`` failed with ``error``; the next starts in ``delay`` s."""
        self._retries += 1
        self._span.add_event(
            "retry",
            {
                "agent_sdk.attempt": attempt,
                "error.type": _error_type(error),
                "exception.message": self._redact(str(error))[:MAX_MESSAGE],
                "agent_sdk.retry.delay_s": delay,
                "agent_sdk.retry.resumed": resumed,
            },
        )

    def end(
        self,
        error: BaseException | None,
        *,
        attempts: int,
        tool_calls: int,
        session_id: str | None,
        usage: Usage | None,
    ) -> None:
        """End the span (once): ``error`` is the task's failure, ``None`` if it
        succeeded."""
        if self._ended:
            return
        self._ended = True
        span = self._span
        span.set_attribute("agent_sdk.outcome", "succeeded" if error is None else "failed")
        span.set_attribute("agent_sdk.attempts", attempts)
        span.set_attribute("agent_sdk.retries", self._retries)
        span.set_attribute("agent_sdk.tool_calls", tool_calls)
        if session_id is not None:
            span.set_attribute("gen_ai.conversation.id", session_id)
        for name, value in _usage_attributes(usage).items():
            span.set_attribute(name, value)
        if error is not None:
            _record_error(self._trace, span, error, self._redact)
        span.end()


@contextmanager
def task_span(task_id: str, redact: Redact) -> Iterator[TaskSpan | None]:
    """The span of a fleet task, current inside the block (the runs started in it are its
    children); ``None`` when the program has not imported the API. The caller ends it
    (:meth:`TaskSpan.end`); the block's exit ends it if the caller did not."""
    trace = sys.modules.get(TRACE_MODULE)
    if trace is None:
        yield None
        return
    span: Span = _tracer(trace).start_span(
        f"invoke_workflow {task_id}",
        attributes={
            "gen_ai.operation.name": "invoke_workflow",
            "gen_ai.provider.name": PROVIDER,
            "agent_sdk.task.id": task_id,
        },
    )
    traced = TaskSpan(trace, span, redact)
    # Neither the exception nor its message on the way out: unredacted, it is recorded
    # by TaskSpan.end, redacted, or not at all (a cancellation).
    try:
        with trace.use_span(
            span, end_on_exit=False, record_exception=False, set_status_on_exception=False
        ):
            yield traced
    except Exception as exc:  # the task's setup failed (a worktree that cannot be made)
        traced.end(exc, attempts=0, tool_calls=0, session_id=None, usage=None)
        raise
    finally:
        if not traced._ended:  # the block left early (cancelled, or the setup failed)
            traced._ended = True
            span.set_attribute("agent_sdk.outcome", "cancelled")
            span.end()
