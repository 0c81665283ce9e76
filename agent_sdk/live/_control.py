"""A request or a turn under its limits, its failure as an agent_sdk error (docs/live.md
"Errors"; docs/acp.md §1: time out every request, §3.7: cancel, §5.2 item 9: a lost agent).

The lowest of the live agent's shells: it sees the agent only as a :class:`RequestAgent`
(``LiveAgent`` is one) and a session only as its id and its cancel, so the sessions and
the agent above it can use it without it knowing them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import anyio
import msgspec

from .._options.redaction import Redaction
from .._transport.log import INFO, log
from .._wire.classify import process_error
from ..errors import AgentError, AgentProtocolError, AgentTimeoutError, ErrorContext
from ._connection import Connection
from ._errors import live_error
from ._jsonrpc import JsonRpcError, decode
from ._messages import InitializeParams, InitializeResult, PromptParams, PromptResult
from ._seam import LiveTransport

__all__ = [
    "CANCEL_GRACE",
    "RequestAgent",
    "ended_error",
    "initialize",
    "prompt",
    "request",
    "result_of",
]

T = TypeVar("T")

#: After ``turn_timeout``, how long the turn's cancel may take before the agent is ended.
CANCEL_GRACE = 5.0
#: How long a lost agent's exit status is awaited for its error.
EXIT_WAIT = 2.0


class RequestAgent(Protocol):
    """What a request needs of the agent it goes to (:class:`~agent_sdk.live.LiveAgent` is
    one): the connection (``_conn`` while open), the process for its exit status and
    stderr, the redaction of every error, and the turn's time limit."""

    @property
    def turn_timeout(self) -> float | None: ...

    @property
    def _conn(self) -> Connection | None: ...

    @property
    def _connection(self) -> Connection: ...

    @property
    def _process(self) -> LiveTransport | None: ...

    @property
    def _redaction(self) -> Redaction: ...

    def stderr_tail(self) -> str: ...


async def request(
    agent: RequestAgent, method: str, params: Any, *, session_id: str | None = None
) -> msgspec.Raw:
    """A request under ``request_timeout``; an error answer or a lost agent is raised as an
    agent_sdk error with the method, the session id and the agent's stderr, redacted."""
    try:
        return await agent._connection.request(method, params)
    except (JsonRpcError, AgentProtocolError) as exc:
        raise await _failure(agent, exc, method, session_id) from None


async def initialize(agent: RequestAgent, params: InitializeParams) -> InitializeResult:
    """``initialize`` (§3.1), the first request. An agent that ends before answering failed
    to start (an unusable ``--model`` exits 1 with a message on stderr, §1): its exit status
    and stderr say why, typed as a print-mode start failure would be (``AgentModelError``,
    ``AgentAuthError``...)."""
    try:
        raw = await agent._connection.request("initialize", params)
    except AgentProtocolError as exc:
        raise await _start_error(agent, exc) from exc
    except JsonRpcError as exc:
        raise await _failure(agent, exc, "initialize", None) from None
    return result_of(agent, raw, InitializeResult, "initialize")


async def _start_error(agent: RequestAgent, exc: AgentProtocolError) -> AgentError:
    process = agent._process
    assert process is not None
    with anyio.move_on_after(EXIT_WAIT):
        await process.wait()
    stderr = agent.stderr_tail()
    context = ErrorContext(exit_code=process.returncode, stderr=stderr)
    said = stderr.strip().splitlines()[-1] if stderr.strip() else str(exc)
    return agent._redaction.error(process_error(said, context))


def result_of(agent: RequestAgent, raw: msgspec.Raw, kind: type[T], method: str) -> T:
    """An answer's result as its type.

    Raises:
        AgentProtocolError: the result is not what the protocol says (redacted).
    """
    try:
        return decode(raw, kind)
    except msgspec.DecodeError as exc:
        error = AgentProtocolError(
            f"{method}: the agent's answer is not what the protocol says: {exc}",
            hint="update the CLI, or report its answer: agent_sdk follows docs/acp.md",
        )
        raise agent._redaction.error(error) from None


async def _failure(
    agent: RequestAgent, exc: JsonRpcError | AgentProtocolError, method: str, session_id: str | None
) -> AgentError:
    """An error answer, an answer that could not be read, or the connection's end (the
    agent went away: say what it left), as the agent_sdk error to raise, redacted."""
    if isinstance(exc, JsonRpcError):
        error: AgentError = live_error(
            exc, method, session_id=session_id, stderr=agent.stderr_tail()
        )
    elif agent._conn is not None and not agent._conn.closed.is_set():
        # Only this request failed (its answer was unreadable): the agent goes on.
        error = AgentProtocolError(
            exc.message, context=ErrorContext(session_id=session_id), hint=exc.hint
        )
    else:
        error = await ended_error(agent, str(exc), session_id)
    return agent._redaction.error(error)


async def ended_error(agent: RequestAgent, why: str, session_id: str | None) -> AgentProtocolError:
    """The agent is gone: its exit status (once reaped, briefly awaited) and stderr, and how
    to go on."""
    process = agent._process
    if process is not None:
        with anyio.move_on_after(EXIT_WAIT):
            await process.wait()
    code = process.returncode if process is not None else None
    context = ErrorContext(session_id=session_id, exit_code=code, stderr=agent.stderr_tail())
    return AgentProtocolError(
        f"{why} (exit {code})",
        context=context,
        hint="start a new LiveAgent and load the session by its id to continue (§5.2 item 9)",
    )


async def prompt(
    agent: RequestAgent, params: PromptParams, cancel: Callable[[], Awaitable[None]]
) -> PromptResult:
    """One ``session/prompt`` to its stop reason, under ``turn_timeout``: past it the turn
    is cancelled (``cancel``: the session's), and if it does not stop within
    :data:`CANCEL_GRACE`, the agent is ended (its other turns too: a process that ignores a
    cancel cannot be trusted with them)."""
    call = await agent._connection.call("session/prompt", params)
    try:
        try:
            raw = await call.result(agent.turn_timeout)
        except AgentTimeoutError:
            log("live", INFO, "a turn ran out of turn_timeout: cancelling it")
            timed_out = await _time_out(agent, params.session_id, cancel, call)
            raise agent._redaction.error(timed_out) from None
        return result_of(agent, raw, PromptResult, "session/prompt")
    except (JsonRpcError, AgentProtocolError) as exc:
        raise await _failure(agent, exc, "session/prompt", params.session_id) from None
    finally:
        call.close()


async def _time_out(
    agent: RequestAgent, session_id: str, cancel: Callable[[], Awaitable[None]], call: Any
) -> AgentTimeoutError:
    with contextlib.suppress(AgentProtocolError):
        await cancel()
    try:
        await call.result(CANCEL_GRACE)
        what = "was cancelled; the session is still usable"
    except (AgentTimeoutError, AgentProtocolError):
        if agent._process is not None:
            await agent._process.aclose(exit_grace=0)
        what = f"did not stop within {CANCEL_GRACE} s of its cancel: the agent was ended"
    return AgentTimeoutError(
        f"the turn took longer than turn_timeout={agent.turn_timeout} s and {what}",
        context=ErrorContext(session_id=session_id),
        hint="raise LiveAgent(turn_timeout=...) or split the prompt",
    )
