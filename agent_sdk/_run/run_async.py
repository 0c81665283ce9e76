"""``run_async``: a run to its end, and its :class:`RunResult` — with ``output_type``, a
validated value of that type (docs/output.md)."""

from __future__ import annotations

from typing import Any, TypeVar, overload

from .._transport.base import Transport
from ..errors import AgentConfigError
from ..options import AgentOptions, given_options, given_prompt
from ..result import PlainResult, RunResult
from .run import Run, run

__all__ = ["run_async", "to_result"]

T = TypeVar("T")


@overload
async def run_async(
    prompt: str, *, options: AgentOptions | None = None, transport: Transport | None = None
) -> PlainResult: ...
@overload
async def run_async(
    prompt: str, *, output_type: type[T], options: AgentOptions | None = None
) -> RunResult[T]: ...
async def run_async(
    prompt: str,
    *,
    output_type: type[Any] | None = None,
    options: AgentOptions | None = None,
    transport: Transport | None = None,
) -> RunResult[Any]:
    """Run the agent to completion and return its :class:`RunResult` (async).

    Args:
        prompt: what to ask the agent.
        output_type: a type msgspec can decode (a ``msgspec.Struct``, a dataclass, a
            ``TypedDict``, ``list[...]``, ...): the prompt gets an instruction with its
            JSON Schema, and ``result.output`` is the value the reply ends with,
            validated; a reply that does not fit is corrected in the same chat, up to
            ``options.output_attempts`` replies (docs/output.md says what is sent).
        options: how to run it (:class:`AgentOptions`); defaults if omitted.
        transport: how to reach the CLI (tests); not with ``output_type``, which may
            take several runs.

    Raises:
        AgentError: those of :func:`run`, once the run is over: AgentConfigError,
            AgentNotFoundError and AgentStartError, AgentProcessError (and its subclasses
            with a hint), AgentResultError, AgentProtocolError, AgentTimeoutError.
        AgentOutputError: with ``output_type``, no reply ended with a value of it.

    Each error's ``events`` holds the events received before it (unless
    ``keep_events=False``).

    Example::

        result = await run_async("Add a docstring to utils.py")
        print(result.result)
        review = (await run_async("Review cart.py", output_type=Review)).output
    """
    if output_type is None:
        return await _one_run(prompt, options, transport)
    if transport is not None:
        raise AgentConfigError(
            "run_async(transport=...) runs once; with output_type it may take several runs",
            hint="leave transport out, or test the output with the fake agent",
        )
    # Loaded by the runs that ask for an output only: `import agent_sdk` is a cost every
    # short script pays (docs/benchmarks.md).
    from .structured import output_run

    return await output_run(_one_run, given_prompt(prompt), given_options(options), output_type)


async def _one_run(
    prompt: str, options: AgentOptions | None, transport: Transport | None = None
) -> PlainResult:
    return await to_result(run(prompt, options=options, transport=transport))


async def to_result(events: Run) -> PlainResult:
    """``events`` iterated to their end, kept for the :class:`RunResult` it returns."""
    async with events._for_result():
        async for _ in events:
            pass
    return events.result
