"""``run()``, ``run_async()`` and ``run_sync()``: a prompt in, typed events and a result out."""

from __future__ import annotations

import math
import os
import sys
from collections import deque
from types import TracebackType
from typing import Any, Literal

import anyio

from ._decode import LineDecoder
from ._framing import LineFramer
from ._process import SIGKILL, AgentProcess, locate_binary
from .errors import (
    AgentError,
    AgentProtocolError,
    AgentResultError,
    AgentTimeoutError,
)
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
from .tool_calls import RunningToolCalls, ToolCall, ToolCallTracker

__all__ = ["Run", "run", "run_async", "run_sync"]

_Expiry = Literal["timeout", "idle", "grace"]
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
    starts on entering the block or on the first iteration. Each event is handed over,
    not kept, so memory stays flat however long the run; ``.result`` has the session,
    usage and final text (``AgentOptions.keep_events=True`` keeps every event too).
    """

    def __init__(self, prompt: str, options: AgentOptions) -> None:
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be a str, got {type(prompt).__name__}")
        self._prompt = prompt
        self._options = options
        self._text_format = options.output_format == "text"
        self._received = 0
        self._process: AgentProcess | None = None
        self._framer = LineFramer()
        self._decoder = LineDecoder(
            partial=options.stream_partial_output or "--stream-partial-output" in options.extra_args
        )
        self._ready: deque[Event] = deque()
        self._eof = False
        self._done = False
        self._ended = False
        self._busy = False
        self._deadline = math.inf
        self._grace_deadline: float | None = None
        self._cut_short = False  # ended by us after the result grace: not a failure
        self._run_result: RunResult | None = None
        self._text_parts: list[str] = []
        self._stdout_lines: deque[str] = deque(maxlen=MAX_STDOUT_LINES)
        # None: streamed, nothing kept (flat memory); _for_result() keeps for a RunResult.
        self._keep(options.keep_events is True)
        self.events: list[Event] = []
        """Every event received so far, when the run keeps them (``keep_events``);
        a streamed run does not by default: it hands each event over as it arrives."""
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
        """The tool calls seen so far, ``started`` paired with ``completed``; when the run
        does not keep its events (``keep_events``), only those still running."""
        return self._tool_calls.calls

    def tool_call(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event of this run belongs to, as known now: its
        ``started`` and ``completed`` events, whether or not the run keeps its events."""
        return self._tool_calls.call_of(event)

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
        await self._end()

    async def __anext__(self) -> Event:
        # The hot path: events decoded from the last chunk wait here, ready.
        ready = self._ready
        if ready:
            return ready.popleft()
        return await self._next_slow()

    async def _next_slow(self) -> Event:
        if self._done:
            raise StopAsyncIteration
        if self._busy:
            raise RuntimeError("this run is already being iterated by another task")
        self._busy = True
        try:
            event = await self._next_event()
        except BaseException:
            # Failure, cancellation or end: in every case the process must not outlive us.
            await self._end()
            raise
        finally:
            self._busy = False
        return event

    def __del__(self) -> None:
        # An abandoned `async for` never calls aclose(); do not leave the CLI running.
        process = getattr(self, "_process", None)
        if process is not None:
            process.kill_now()
        if not getattr(self, "_ended", True):
            self._ended = True
            self._on_end()

    def _for_result(self) -> Run:
        """This run ends in a :class:`RunResult` (``run_async``, ``Session.send``): keep
        every event for it, unless the options say ``keep_events=False``."""
        if self._options.keep_events is None:
            self._keep(True)
        return self

    def _keep(self, keep: bool) -> None:
        self._keep_events = keep
        self._tool_calls: ToolCallTracker | RunningToolCalls = (
            ToolCallTracker() if keep else RunningToolCalls()
        )

    # --- hooks for subclasses (Session) -----------------------------------------------
    async def _prepare(self) -> AgentOptions:
        """Called once before the process starts; returns the options to run with."""
        return self._options

    def _on_end(self) -> None:
        """Called exactly once when the run is over, however it ended."""

    # --- machinery ------------------------------------------------------------------
    async def _end(self) -> None:
        self._done = True
        self._ready.clear()  # ended: nothing more is delivered
        if self._process is not None:
            await self._process.aclose()
        if not self._ended:
            self._ended = True
            self._on_end()

    async def _start(self) -> None:
        if self._process is not None or self._done:
            return
        now = anyio.current_time()
        if self._options.timeout is not None:
            self._deadline = now + self._options.timeout
        with anyio.move_on_after(self._deadline - now) as scope:
            self._options = options = await self._prepare()
            binary = await locate_binary(options)
            invocation = build_invocation(self._prompt, options, binary=binary, environ=os.environ)
            self._process = await AgentProcess.spawn(invocation, options.cwd)
        if scope.cancelled_caught:
            await self._expired("timeout")

    async def _next_event(self) -> Event:
        await self._start()
        ready = self._ready
        while not ready:
            if self._eof:
                await self._finish()
                raise StopAsyncIteration
            await self._read()
        return ready.popleft()

    def _limit(self, *, idle: bool) -> tuple[float, _Expiry]:
        """How long the next wait on the CLI may last, and what it means if it expires."""
        unlimited = self._deadline == math.inf and self._grace_deadline is None
        if unlimited and (not idle or self._options.idle_timeout is None):
            return math.inf, "timeout"  # no limit: spare the clock (once per chunk)
        now = anyio.current_time()
        limits: list[tuple[float, _Expiry]] = [(self._deadline - now, "timeout")]
        if idle and self._options.idle_timeout is not None:
            limits.append((self._options.idle_timeout, "idle"))
        if self._grace_deadline is not None:
            limits.append((self._grace_deadline - now, "grace"))
        return min(limits, key=lambda limit: limit[0])

    async def _read(self) -> None:
        assert self._process is not None
        delay, expiry = self._limit(idle=True)
        if delay == math.inf:  # no limit: spare the cancel scope, this is the hot path
            chunk = await self._process.receive()
        else:
            chunk = None
            with anyio.move_on_after(delay) as scope:
                chunk = await self._process.receive()
            if scope.cancelled_caught:
                await self._expired(expiry)
        if chunk is None:
            self._eof = True
            tail = self._framer.flush()
            if tail is not None:
                self._absorb(tail)
        else:
            for block in self._framer.feed_blocks(chunk):
                self._absorb(block)

    def _absorb(self, block: bytes | memoryview) -> None:
        """Decode a block of complete lines, record its events and queue them, in order."""
        if self._text_format:
            self._absorb_text(block)
            return
        events, notable, junk = self._decoder.decode_block(block)
        for line in junk:
            text = line.decode("utf-8", "replace").rstrip("\r")
            self._stdout_lines.append(text[:MAX_STDOUT_LINE_CHARS])
        if not events:
            return
        self._received += len(events)
        for event in notable:
            if isinstance(event, ResultEvent):
                self.result_event = event
                # The known hang (cli-protocol.md §5): from here on the CLI has
                # result_grace seconds to finish; then its group is ended, successfully.
                self._start_grace()
            elif isinstance(event, (ToolCallStarted, ToolCallCompleted)):
                self._tool_calls.add(event)
        for event in reversed(events):
            if event.session_id is not None:
                self.session_id = event.session_id
                break
        if self._keep_events:
            self.events.extend(events)
        self._ready.extend(events)

    def _absorb_text(self, block: bytes | memoryview) -> None:
        data = bytes(block)
        lines = data.decode("utf-8", "replace").split("\n")
        if data.endswith(b"\n"):
            lines.pop()  # what follows the last newline is not a line
        for text in lines:
            self._text_parts.append(text)
            # In text output every line is also what the CLI said, should it fail.
            self._stdout_lines.append(text[:MAX_STDOUT_LINE_CHARS])
            event = TextLine(text=text.removesuffix("\r"))
            self._received += 1
            if self._keep_events:
                self.events.append(event)
            self._ready.append(event)

    def _start_grace(self) -> None:
        if self._grace_deadline is None:
            self._grace_deadline = anyio.current_time() + self._options.result_grace

    async def _expired(self, expiry: _Expiry) -> None:
        """A limit ran out: end the process group; raise unless it was the result grace."""
        if expiry == "grace":
            self._cut_short = True
            self._eof = True
            return
        await self._end()
        options = self._options
        if expiry == "timeout":
            what = f"did not finish within {options.timeout:g} s (AgentOptions.timeout)"
        else:
            what = f"printed nothing for {options.idle_timeout:g} s (AgentOptions.idle_timeout)"
        context = self._context(self._process.returncode if self._process else None)
        said = self._what_the_cli_said(context["stderr"], context["stdout_lines"], quiet="")
        raise AgentTimeoutError(
            f"cursor-agent {what}; its process group was ended after {self._received} "
            f"events (session {self.session_id}). {said}".rstrip(),
            session_id=self.session_id,
            hint="raise the timeout, or resume the chat with AgentOptions(resume=session_id)"
            if self.session_id
            else "raise the timeout",
            **context,
        )

    async def _finish(self) -> None:
        assert self._process is not None
        code: int | None = None
        if not self._cut_short:
            # stdout is closed: the CLI is exiting. If it lingers (a grandchild holding
            # it up, or the known hang) it gets the same grace as after a result.
            self._start_grace()
            delay, expiry = self._limit(idle=False)
            with anyio.move_on_after(delay) as scope:
                code = await self._process.wait()
            if scope.cancelled_caught:
                await self._expired(expiry)
        if code is None:
            await self._process.aclose()
        self._done = True
        exit_code = code if code is not None else self._process.returncode
        error = self._failure(exit_code if exit_code is not None else -SIGKILL, code is None)
        if error is not None:
            raise error
        self._run_result = self._build_result(exit_code if exit_code is not None else 0)

    def _context(self, exit_code: int | None) -> dict[str, Any]:
        """What every error carries: events, exit code, stderr tail, non-JSON lines."""
        stderr = self._process.stderr.text() if self._process is not None else ""
        return {
            "events": self.events,
            "exit_code": exit_code,
            "stderr": self._redact(stderr),
            "stdout_lines": [self._redact(line) for line in self._stdout_lines],
        }

    def _failure(self, exit_code: int, ended_by_us: bool) -> AgentError | None:
        """The error a finished run raises, or ``None`` if it succeeded."""
        context = self._context(exit_code)
        said = self._what_the_cli_said(context["stderr"], context["stdout_lines"])
        if ended_by_us:
            if self.result_event is not None or self._text_format:
                return self._result_failure(context, said)
            return AgentProtocolError(
                "cursor-agent closed its output without a result event and did not exit; "
                f"its process group was ended: {said}",
                session_id=self.session_id,
                **context,
            )
        if exit_code != 0:
            from ._classify import process_error  # late: only failures need it

            return process_error(said, session_id=self.session_id, **context)
        if self.result_event is None and not self._text_format:
            return AgentProtocolError(
                f"cursor-agent exited with code 0 but sent no result event: {said}",
                session_id=self.session_id,
                **context,
            )
        return self._result_failure(context, said)

    def _result_failure(self, context: dict[str, Any], said: str) -> AgentError | None:
        if self.result_event is None or not self.result_event.is_error:
            return None
        return AgentResultError(
            f"the agent reported an error ({self.result_event.subtype}): "
            f"{self.result_event.result or said}",
            event=self.result_event,
            **context,
        )

    def _what_the_cli_said(
        self,
        stderr: str,
        stdout_lines: list[str],
        quiet: str = "it printed no error message (no stderr, no non-JSON output)",
    ) -> str:
        lines = [line for line in stdout_lines if line.strip()]
        lines += [line for line in stderr.splitlines() if line.strip()]
        if not lines:
            return quiet
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
        has_assistant_text = self._options.output_format == "stream-json" and self._keep_events
        return RunResult(
            result=result.result,
            text="".join([e.new_text for e in self.events if type(e) is AssistantEvent])
            if has_assistant_text
            else result.result,
            session_id=self.session_id,
            request_id=result.request_id,
            usage=result.usage,
            duration_ms=result.duration_ms,
            duration_api_ms=result.duration_api_ms,
            events=self.events,
            tool_calls=self._tool_calls.calls if self._keep_events else [],
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
    async with run(prompt, options=options)._for_result() as events:
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
    import threading

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
