"""A run asked for an ``output_type``: the first turn with the instruction, then
corrections in the same chat until the reply's JSON value fits (docs/output.md).

The turns are whatever the caller runs them with (a run resuming the chat, a session's
turn, a fleet's attempt), given as one function; this module only decides what to send
and when to stop, and adds the turns up into one :class:`RunResult`.
"""

from __future__ import annotations

import functools
import operator
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import msgspec

from .._options.redaction import Redaction, redaction_of
from ..errors import AgentConfigError, AgentOutputError, AgentTimeoutError, ErrorContext
from ..options import AgentOptions
from ..result import RunResult
from .output import OutputMismatchError, correction, instruction, parse_output, quoted

__all__ = ["Turn", "output_run"]

T = TypeVar("T")

# A longer reply is searched and decoded on a worker thread, so that the event loop goes
# on: the search is linear, but a reply of a megabyte takes a good part of a second.
_ON_A_THREAD = 64 * 1024

Turn = Callable[[str, AgentOptions], Awaitable[RunResult[Any]]]
"""``(prompt, options) -> result``: one turn; ``options.resume`` says the chat to go on."""


async def output_run(
    turn: Turn, prompt: str, options: AgentOptions, output_type: type[T]
) -> RunResult[T]:
    """Run turns until the reply ends with a value of ``output_type``.

    The first turn's prompt is ``prompt`` with the instruction; each correction resumes
    the chat of the turn before it. The turns share ``options.timeout``: each gets what
    is left of it, and so does the check of each reply. What goes back to the agent and
    the error are cleared of the run's secrets (agent_sdk/_options/redaction.py). With
    ``options.checkpoint``, one checkpoint covers every turn (docs/sessions.md).

    Raises:
        AgentConfigError: msgspec cannot make a JSON Schema of ``output_type``.
        AgentOutputError: ``options.output_attempts`` replies, and none fit.
        AgentError: what a turn raised.
    """
    if options.checkpoint:  # one checkpoint over every reply (docs/sessions.md)
        from .checkpointed import over

        return await over(options, lambda given: output_run(turn, prompt, given, output_type))
    try:
        asked = prompt + instruction(output_type)
    except (TypeError, ValueError) as error:
        raise AgentConfigError(
            f"output_type {output_type!r} has no JSON Schema: {error}",
            hint="use a type msgspec can decode: a msgspec.Struct, a dataclass, a "
            "TypedDict, list[...], dict[str, ...], int, str, ...",
        ) from None
    deadline = time.monotonic() + options.timeout if options.timeout is not None else None
    redaction = redaction_of(options, os.environ)
    results: list[RunResult[Any]] = []
    while True:
        if deadline is not None:
            options = msgspec.structs.replace(options, timeout=_left(deadline))
        result = await turn(asked, options)
        results.append(result)
        try:
            value = await _parsed(result.result, output_type, deadline)
        except OutputMismatchError as mismatch:
            if len(results) >= options.output_attempts:
                raise _output_error(result, mismatch, len(results), redaction) from None
            asked = correction(redaction.text(mismatch.problem))
            # The chat exists now: a chosen id (new_session_id) is used up (docs/sessions.md).
            options = msgspec.structs.replace(
                options, resume=result.session_id, continue_session=False, new_session_id=None
            )
            continue
        return _added_up(results, value)


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _out_of_time()
    return left


def _out_of_time() -> AgentTimeoutError:
    return AgentTimeoutError(
        "the run's timeout ran out between its reply and the correction of its JSON",
        hint="give AgentOptions(timeout=...) room for the corrections, or lower output_attempts",
    )


async def _parsed(text: str, output_type: Any, deadline: float | None) -> Any:
    """:func:`parse_output`, on a worker thread for a long reply, within the deadline."""
    if len(text) < _ON_A_THREAD:
        return parse_output(text, output_type)
    with anyio.move_on_after(_left(deadline) if deadline is not None else None) as scope:
        return await anyio.to_thread.run_sync(
            parse_output, text, output_type, abandon_on_cancel=True
        )
    assert scope.cancelled_caught
    raise _out_of_time()


def _output_error(
    result: RunResult[Any], mismatch: OutputMismatchError, attempts: int, redaction: Redaction
) -> AgentOutputError:
    problem = redaction.text(mismatch.problem)
    error = AgentOutputError(
        f"no reply ended with a JSON value of the output type after {attempts} "
        f"{'reply' if attempts == 1 else 'replies'}: {quoted(problem)}",
        reply=result.result,
        json=mismatch.json,
        problem=problem,
        attempts=attempts,
        context=ErrorContext(
            session_id=result.session_id,
            exit_code=result.exit_code,
            stderr=result.stderr,
            cli_version=result.cli_version,
        ),
        hint="see .problem, .reply and .json; allow more corrections with "
        "AgentOptions(output_attempts=...), or describe the output in the prompt",
    )
    return redaction.error(error)  # every attribute: reply, json, context...


def _added_up(results: list[RunResult[Any]], value: T) -> RunResult[T]:
    """The last turn's result, with the events, tool calls and tokens of every turn."""
    last = results[-1]
    usages = [r.usage for r in results if r.usage is not None]
    usage = functools.reduce(operator.add, usages) if usages else None
    thoughts = [r.thinking_blocks for r in results if r.thinking_blocks is not None]
    return RunResult(
        result=last.result,
        text=last.text,
        session_id=last.session_id,
        request_id=last.request_id,
        usage=usage,
        duration_ms=_sum(r.duration_ms for r in results),
        duration_api_ms=_sum(r.duration_api_ms for r in results),
        thinking_blocks=[block for blocks in thoughts for block in blocks] if thoughts else None,
        events=[event for r in results for event in r.events],
        tool_calls=[call for r in results for call in r.tool_calls],
        plan=last.plan,
        exit_code=last.exit_code,
        stderr=last.stderr,
        hook_errors=[error for r in results for error in r.hook_errors],
        output=value,
        cli_version=last.cli_version,  # each turn is a run: the CLI may update between
        rejoined_events=sum(r.rejoined_events for r in results),
    )


def _sum(values: Any) -> int | None:
    counted = [value for value in values if value is not None]
    return sum(counted) if counted else None
