"""How a run ended, as a value: its :class:`~agent_sdk.RunResult` or the right error.

Pure functions of what the run observed (the exit status, the :class:`Stream`, the stderr
tail), so every failure rule of docs/protocol.md §5 is tested without a process:

- a non-zero exit or a signal is an :class:`~agent_sdk.AgentProcessError` (a subclass when
  the CLI's message is recognised);
- exit 0 without a ``result`` event is an :class:`~agent_sdk.AgentProtocolError`;
- a ``result`` with ``is_error`` is an :class:`~agent_sdk.AgentResultError`;
- a CLI that printed its result and was then ended by us (the known hang) succeeded.

Every error they return, and the ``stderr`` of a result, is cleared of the run's secrets
by the one redaction of :mod:`.redaction` (the reply of a successful run is not: see
there why).
"""

from __future__ import annotations

import os
from typing import Literal

from .._options.agent_options import AgentOptions
from .._options.redaction import Redaction, redaction_of
from .._wire.classify import (
    MESSAGE_CHARS,  # how much of what the CLI said a message quotes (classify.shorten)
    cli_text,
    process_error,
    shorten,
)
from .._wire.stream import Stream
from ..errors import (
    AgentError,
    AgentProtocolError,
    AgentResultError,
    AgentTimeoutError,
    ErrorContext,
)
from ..result import PlainResult, RunResult

__all__ = [
    "KILLED",
    "Expiry",
    "failure_or_result",
    "timeout_error",
    "what_the_cli_said",
]

Expiry = Literal["timeout", "idle"]
KILLED = -9  # the exit status of a CLI whose process group was ended with SIGKILL


def _redaction(options: AgentOptions, redaction: Redaction | None) -> Redaction:
    # The run's secrets: its options' and those of the environment it was started from.
    return redaction if redaction is not None else redaction_of(options, os.environ)


def context(
    stream: Stream,
    *,
    exit_code: int | None,
    stderr: str,
    redaction: Redaction,
    cli_version: str | None = None,
) -> ErrorContext:
    """What an error of this run carries. What the CLI said is redacted here, before a
    message quotes (and perhaps cuts) it; the events, by ``Redaction.error``."""
    return ErrorContext(
        session_id=stream.session_id,
        exit_code=exit_code,
        stderr=redaction.text(stderr),
        stdout_lines=redaction.lines(stream.stdout_lines),
        events=stream.events,
        cli_version=cli_version,
        rejoined_events=stream.rejoined_events,
    )


def what_the_cli_said(
    context: ErrorContext,
    quiet: str = "it printed no error message (no stderr, no non-JSON output)",
    *,
    whole: bool = False,
) -> str:
    """The CLI's own words: its non-JSON stdout and stderr (``quiet`` if it said nothing).
    ``whole``: all of them, for recognising the failure; otherwise a quote for a message,
    its middle cut out when it is over ``MESSAGE_CHARS`` (``classify.shorten``)."""
    text = cli_text(context)
    if not text:
        return quiet
    return text if whole else shorten(text, MESSAGE_CHARS)


def failure_or_result(
    stream: Stream,
    *,
    exit_code: int,
    ended_by_us: bool,
    stderr: str,
    options: AgentOptions,
    redaction: Redaction | None = None,
    cli_version: str | None = None,
) -> PlainResult | AgentError:
    """The outcome of a run whose output has ended.

    Args:
        stream: what the output said.
        exit_code: the CLI's exit status (negative: killed by that signal).
        ended_by_us: the CLI did not exit within ``result_grace`` after its result (or
            after closing stdout) and agent_sdk ended its process group.
        stderr: the tail of stderr.
        options: the run's options (output format, secrets).
        redaction: the run's redaction; default: that of ``options`` and ``os.environ``.
        cli_version: the CLI's version string, if known (on the result and the error).
    """
    redaction = _redaction(options, redaction)
    ctx = context(
        stream, exit_code=exit_code, stderr=stderr, redaction=redaction, cli_version=cli_version
    )
    outcome = _outcome(stream, ctx, exit_code=exit_code, ended_by_us=ended_by_us, options=options)
    return redaction.error(outcome) if isinstance(outcome, AgentError) else outcome


def _outcome(
    stream: Stream,
    ctx: ErrorContext,
    *,
    exit_code: int,
    ended_by_us: bool,
    options: AgentOptions,
) -> PlainResult | AgentError:
    """The outcome, from a context already redacted (the error is redacted whole after)."""
    text_output = options.output_format == "text"
    result = stream.result_event
    if ended_by_us and result is None and not text_output:
        return AgentProtocolError(
            "cursor-agent closed its output without a result event and did not exit; "
            f"its process group was ended: {what_the_cli_said(ctx)}",
            context=ctx,
        )
    if exit_code != 0 and not ended_by_us:
        # Recognised from the whole text: a message is known by its start (§5), and the
        # unknown-model line alone is ~6 KB.
        return process_error(what_the_cli_said(ctx), ctx, whole=what_the_cli_said(ctx, whole=True))
    if result is None and not text_output:
        return AgentProtocolError(
            f"cursor-agent exited with code 0 but sent no result event: {what_the_cli_said(ctx)}",
            context=ctx,
        )
    if result is not None and result.is_error:
        return AgentResultError(
            f"the agent reported an error ({result.subtype}): "
            f"{result.result or what_the_cli_said(ctx)}",
            event=result,
            context=ctx,
        )
    if result is None:  # a text run: its output is the reply
        return RunResult(
            result=stream.text,
            text=stream.text,
            session_id=stream.session_id,  # one chosen up front, else None (docs/sessions.md)
            events=stream.events,
            exit_code=exit_code,
            stderr=ctx.stderr,
            output=None,
            cli_version=ctx.cli_version,
            rejoined_events=ctx.rejoined_events,
        )
    return RunResult(
        result=result.result,
        text=stream.text if options.output_format == "stream-json" else result.result,
        session_id=stream.session_id,
        request_id=result.request_id,
        usage=result.usage,
        duration_ms=result.duration_ms,
        duration_api_ms=result.duration_api_ms,
        thinking_blocks=result.thinking_blocks,
        events=stream.events,
        tool_calls=stream.tool_calls.calls if stream.keep_events else [],
        plan=stream.tool_calls.plan,
        exit_code=exit_code,
        stderr=ctx.stderr,
        output=None,
        cli_version=ctx.cli_version,
        rejoined_events=ctx.rejoined_events,
    )


def timeout_error(
    stream: Stream,
    expiry: Expiry,
    *,
    exit_code: int | None,
    stderr: str,
    options: AgentOptions,
    redaction: Redaction | None = None,
    cli_version: str | None = None,
) -> AgentTimeoutError:
    """The error of a run that ran out of ``timeout`` or ``idle_timeout``, every secret
    gone (``redaction``, ``cli_version``: as for :func:`failure_or_result`)."""
    redaction = _redaction(options, redaction)
    ctx = context(
        stream, exit_code=exit_code, stderr=stderr, redaction=redaction, cli_version=cli_version
    )
    if expiry == "timeout":
        what = f"did not finish within {options.timeout:g} s (AgentOptions.timeout)"
    else:
        what = f"printed nothing for {options.idle_timeout:g} s (AgentOptions.idle_timeout)"
    said = what_the_cli_said(ctx, quiet="")
    error = AgentTimeoutError(
        f"cursor-agent {what}; its process group was ended after {stream.received} "
        f"events (session {stream.session_id}). {said}".rstrip(),
        context=ctx,
        hint="raise the timeout, or resume the chat with AgentOptions(resume=session_id)"
        if stream.session_id
        else "raise the timeout",
    )
    return redaction.error(error)
