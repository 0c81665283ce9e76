"""``run()``, ``run_async()`` and ``run_sync()``: a prompt in, typed events and a result out."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections import deque
from types import TracebackType
from typing import Any

import anyio

from ._decode import LineDecoder
from ._discovery import find_binary
from ._framing import LineFramer
from ._process import AgentProcess
from .errors import AgentError, AgentProcessError, AgentProtocolError, AgentResultError
from .events import (
    AssistantEvent,
    Event,
    ResultEvent,
    TextLine,
    ToolCallCompleted,
    ToolCallStarted,
)
from .options import AgentOptions, build_invocation
from .result import RunResult
from .tool_calls import ToolCall, ToolCallTracker

__all__ = ["Run", "run", "run_async", "run_sync"]

# The known hang (cli-protocol.md §5): after `result` the CLI may never exit. Give it
# this long to close stdout and exit, then end its process group; the run succeeded.
RESULT_GRACE = 2.0
# Non-JSON stdout lines kept for the error message: a flood of junk must not grow memory.
MAX_STDOUT_LINES = 200
MAX_STDOUT_LINE_CHARS = 4000
# How much of what the CLI said goes into an exception's message (all of it is on the
# exception's attributes).
MESSAGE_CHARS = 2000


class Run:
    """A run of the agent: an async iterator of :data:`~agent_sdk.events.Event`.

    Returned by :func:`run`. Iterate it directly, or use it as an async context manager
    to end the process deterministically when the block exits (``async for`` alone
    does not close an iterator on ``break``; see PEP 533)::

        async with run("Fix the failing test") as events:
            async for event in events:
                ...
        print(events.result.usage)

    Events already received are delivered before any failure is raised. The process
    starts on entering the block or on the first iteration.
    """

    def __init__(self, prompt: str, options: AgentOptions) -> None:
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be a str, got {type(prompt).__name__}")
        self._prompt = prompt
        self._options = options
        self._text_format = options.output_format == "text"
        self._process: AgentProcess | None = None
        self._framer = LineFramer(keep_empty=self._text_format)
        self._decoder = LineDecoder(
            partial=options.stream_partial_output or "--stream-partial-output" in options.extra_args
        )
        self._lines: deque[bytes] = deque()
        self._eof = False
        self._done = False
        self._busy = False
        self._ended_after_result = False
        self._run_result: RunResult | None = None
        self._text_parts: list[str] = []
        self._stdout_lines: deque[str] = deque(maxlen=MAX_STDOUT_LINES)
        self._tool_calls = ToolCallTracker()
        self.events: list[Event] = []
        """Every event received so far."""
        self.session_id: str | None = None
        """The chat id, as soon as an event has carried it."""
        self.result_event: ResultEvent | None = None
        """The ``result`` event, once received."""

    # --- public surface -------------------------------------------------------------
    @property
    def result(self) -> RunResult:
        """The :class:`RunResult`, once the iteration has ended without error.

        Raises:
            RuntimeError: the run has not finished successfully (yet).
        """
        if self._run_result is None:
            raise RuntimeError("the run has not finished: iterate it to the end first")
        return self._run_result

    @property
    def pid(self) -> int | None:
        """The CLI's process id (also its process group id), once started."""
        return self._process.pid if self._process is not None else None

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls seen so far, ``started`` paired with ``completed``."""
        return self._tool_calls.calls

    def tool_call(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event of this run belongs to, as known now."""
        call = self._tool_calls.get(event.call_id)
        return call if call is not None else ToolCall(event.call_id)

    def __aiter__(self) -> Run:
        return self

    async def __aenter__(self) -> Run:
        await self._start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """End the run now: the CLI's whole process group is terminated. Idempotent."""
        self._done = True
        if self._process is not None:
            await self._process.aclose()

    async def __anext__(self) -> Event:
        if self._done:
            raise StopAsyncIteration
        if self._busy:
            raise RuntimeError("this run is already being iterated by another task")
        self._busy = True
        try:
            event = await self._next_event()
        except BaseException:
            # Failure, cancellation or end: in every case the process must not outlive us.
            self._done = True
            if self._process is not None:
                await self._process.aclose()
            raise
        finally:
            self._busy = False
        return event

    def __del__(self) -> None:
        # An abandoned `async for` never calls aclose(); do not leave the CLI running.
        process = getattr(self, "_process", None)
        if process is not None:
            process.kill_now()

    # --- machinery ------------------------------------------------------------------
    async def _start(self) -> None:
        if self._process is not None or self._done:
            return
        options = self._options
        environ = dict(os.environ)
        if options.env:
            environ.update(options.env)
        binary = await anyio.to_thread.run_sync(find_binary, options.binary, environ)
        invocation = build_invocation(self._prompt, options, binary=binary, environ=os.environ)
        self._process = await AgentProcess.spawn(invocation, options.cwd)

    async def _next_event(self) -> Event:
        await self._start()
        while True:
            while self._lines:
                event = self._take(self._lines.popleft())
                if event is not None:
                    return event
            if self._eof:
                break
            await self._read()
        await self._finish()
        raise StopAsyncIteration

    async def _read(self) -> None:
        assert self._process is not None
        if self.result_event is None:
            chunk = await self._process.receive()
        else:
            chunk = None
            with anyio.move_on_after(RESULT_GRACE) as scope:
                chunk = await self._process.receive()
            if scope.cancelled_caught:
                self._ended_after_result = True
        if chunk is None:
            self._eof = True
            tail = self._framer.flush()
            if tail is not None:
                self._lines.append(tail)
        else:
            self._lines.extend(self._framer.feed(chunk))

    def _take(self, line: bytes) -> Event | None:
        """Decode a line and record it; ``None`` for a line that is not an event."""
        event: Event | None
        if self._text_format:
            text = line.decode("utf-8", "replace")
            self._text_parts.append(text)
            # In text output every line is also what the CLI said, should it fail.
            self._stdout_lines.append(text[:MAX_STDOUT_LINE_CHARS])
            event = TextLine(text=text.removesuffix("\r"))
        else:
            event = self._decoder.decode(line)
            if event is None:
                text = line.decode("utf-8", "replace").rstrip("\r")
                self._stdout_lines.append(text[:MAX_STDOUT_LINE_CHARS])
                return None
            if isinstance(event, AssistantEvent):
                if event.new_text:
                    self._text_parts.append(event.new_text)
            elif isinstance(event, (ToolCallStarted, ToolCallCompleted)):
                self._tool_calls.add(event)
            elif isinstance(event, ResultEvent):
                self.result_event = event
            session_id = event.session_id
            if session_id is not None:
                self.session_id = session_id
        self.events.append(event)
        return event

    async def _finish(self) -> None:
        assert self._process is not None
        if self._ended_after_result:
            await self._process.aclose()
            code = self._process.returncode
        elif self.result_event is not None:
            code = None
            with anyio.move_on_after(RESULT_GRACE):
                code = await self._process.wait()
            if code is None:
                await self._process.aclose()
                code = self._process.returncode
        else:
            code = await self._process.wait()
        self._done = True
        exit_code = code if code is not None else -signal.SIGKILL
        hung_after_result = self._ended_after_result or code is None
        error = self._failure(exit_code, hung_after_result)
        if error is not None:
            raise error
        self._run_result = self._build_result(exit_code)

    def _failure(self, exit_code: int, hung_after_result: bool) -> AgentError | None:
        assert self._process is not None
        context: dict[str, Any] = {
            "events": self.events,
            "exit_code": exit_code,
            "stderr": self._redact(self._process.stderr.text()),
            "stdout_lines": [self._redact(line) for line in self._stdout_lines],
        }
        said = self._what_the_cli_said(context["stderr"], context["stdout_lines"])
        if exit_code != 0 and not hung_after_result:
            if exit_code < 0:
                try:
                    how = f"was killed by signal {signal.Signals(-exit_code).name}"
                except ValueError:
                    how = f"was killed by signal {-exit_code}"
            else:
                how = f"exited with code {exit_code}"
            return AgentProcessError(
                f"cursor-agent {how}: {said}", session_id=self.session_id, **context
            )
        if self._text_format:
            return None
        if self.result_event is None:
            return AgentProtocolError(
                f"cursor-agent exited with code 0 but sent no result event: {said}",
                session_id=self.session_id,
                **context,
            )
        if self.result_event.is_error:
            text = self.result_event.result or said
            return AgentResultError(
                f"the agent reported an error ({self.result_event.subtype}): {text}",
                event=self.result_event,
                **context,
            )
        return None

    def _what_the_cli_said(self, stderr: str, stdout_lines: list[str]) -> str:
        lines = [line for line in stdout_lines if line.strip()]
        lines += [line for line in stderr.splitlines() if line.strip()]
        if not lines:
            return "it printed no error message (no stderr, no non-JSON output)"
        text = "\n".join(lines)
        if len(text) > MESSAGE_CHARS:
            text = "..." + text[-MESSAGE_CHARS:]
        return text

    def _redact(self, text: str) -> str:
        key = self._options.api_key
        return text.replace(key, "***") if key else text

    def _build_result(self, exit_code: int) -> RunResult:
        assert self._process is not None
        stderr = self._redact(self._process.stderr.text())
        if self._text_format:
            text = "\n".join(self._text_parts)
            return RunResult(
                result=text, text=text, events=self.events, exit_code=exit_code, stderr=stderr
            )
        result = self.result_event
        assert result is not None
        has_assistant_text = self._options.output_format == "stream-json"
        return RunResult(
            result=result.result,
            text="".join(self._text_parts) if has_assistant_text else result.result,
            session_id=self.session_id,
            request_id=result.request_id,
            usage=result.usage,
            duration_ms=result.duration_ms,
            duration_api_ms=result.duration_api_ms,
            events=self.events,
            tool_calls=self._tool_calls.calls,
            exit_code=exit_code,
            stderr=stderr,
        )


def run(prompt: str, *, options: AgentOptions | None = None) -> Run:
    """Run the agent on a prompt and stream its events.

    Args:
        prompt: what to ask the agent.
        options: how to run it (:class:`AgentOptions`); defaults if omitted.

    Returns:
        A :class:`Run`: an async iterator of typed events that is also an async
        context manager. Nothing starts until it is entered or iterated.

    Raises (while iterating, after the events received before the failure):
        AgentNotFoundError: no CLI binary.
        AgentProcessError: the CLI exited non-zero or was killed.
        AgentResultError: the result event has ``is_error: true``.
        AgentProtocolError: the CLI exited 0 without a result event.

    Example::

        async for event in run("Explain main.py"):
            if isinstance(event, AssistantEvent):
                print(event.new_text, end="", flush=True)
    """
    return Run(prompt, options if options is not None else AgentOptions())


async def run_async(prompt: str, *, options: AgentOptions | None = None) -> RunResult:
    """Run the agent to completion and return its :class:`RunResult` (async).

    Same arguments and errors as :func:`run`.

    Example::

        result = await run_async("Add a docstring to utils.py")
        print(result.result)
    """
    async with run(prompt, options=options) as events:
        async for _ in events:
            pass
    return events.result


def run_sync(prompt: str, *, options: AgentOptions | None = None) -> RunResult:
    """Run the agent to completion and return its :class:`RunResult` (blocking).

    Works from a plain script and also from a thread that already runs an event loop
    (a notebook): the run then happens on a private loop in a worker thread. Same
    arguments and errors as :func:`run`.

    Example::

        print(run_sync("What does this repo do?").result)
    """
    if not _loop_running_in_this_thread():
        return anyio.run(_run_async_positional, prompt, options)
    box: list[RunResult] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            box.append(anyio.run(_run_async_positional, prompt, options))
        except BaseException as exc:  # re-raised in the caller's thread, type intact
            failure.append(exc)

    thread = threading.Thread(target=target, name="agent_sdk.run_sync", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return box[0]


async def _run_async_positional(prompt: str, options: AgentOptions | None) -> RunResult:
    return await run_async(prompt, options=options)


def _loop_running_in_this_thread() -> bool:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        trio = sys.modules.get("trio")  # only look if the program uses trio at all
        return trio is not None and bool(trio.lowlevel.in_trio_run())
    return True
