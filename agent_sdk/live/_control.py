"""A request or a turn under its limits, its failure as an agent_sdk error (docs/live.md
"Errors"; docs/acp.md §1: time out every request, §3.7: cancel, §5.2 item 9: a lost agent).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import msgspec

from .._protocol.classify import process_error
from ..errors import AgentError, AgentProtocolError, AgentTimeoutError, ErrorContext
from ._errors import live_error
from ._jsonrpc import JsonRpcError, decode
from ._messages import InitializeParams, InitializeResult, PromptParams, PromptResult

if TYPE_CHECKING:
    from ._agent import LiveAgent
    from ._session import LiveSession

__all__ = ["CANCEL_GRACE", "ended_error", "initialize", "prompt", "request", "result_of"]

T = TypeVar("T")

#: After ``turn_timeout``, how long the turn's cancel may take before the agent is ended.
CANCEL_GRACE = 5.0
#: How long a lost agent's exit status is awaited for its error.
EXIT_WAIT = 2.0


async def request(
    agent: LiveAgent, method: str, params: Any, *, session: LiveSession | None = None
) -> msgspec.Raw:
    """A request under ``request_timeout``; an error answer or a lost agent is raised as an
    agent_sdk error with the method, the session id and the agent's stderr, redacted."""
    session_id = session.session_id if session is not None else None
    try:
        return await agent._connection.request(method, params)
    except (JsonRpcError, AgentProtocolError) as exc:
        raise await _failure(agent, exc, method, session_id) from None


async def initialize(agent: LiveAgent, params: InitializeParams) -> InitializeResult:
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


async def _start_error(agent: LiveAgent, exc: AgentProtocolError) -> AgentError:
    process = agent._process
    assert process is not None
    with anyio.move_on_after(EXIT_WAIT):
        await process.wait()
    stderr = agent.stderr_tail()
    context = ErrorContext(exit_code=process.returncode, stderr=stderr)
    said = stderr.strip().splitlines()[-1] if stderr.strip() else str(exc)
    return agent._redaction.error(process_error(said, context))


def result_of(agent: LiveAgent, raw: msgspec.Raw, kind: type[T], method: str) -> T:
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
    agent: LiveAgent, exc: JsonRpcError | AgentProtocolError, method: str, session_id: str | None
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


async def ended_error(agent: LiveAgent, why: str, session_id: str | None) -> AgentProtocolError:
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


async def prompt(agent: LiveAgent, session: LiveSession, params: PromptParams) -> PromptResult:
    """One ``session/prompt`` to its stop reason, under ``turn_timeout``: past it the turn
    is cancelled; if it does not stop within :data:`CANCEL_GRACE`, the agent is ended (its
    other turns too: a process that ignores a cancel cannot be trusted with them)."""
    call = await agent._connection.call("session/prompt", params)
    try:
        try:
            raw = await call.result(agent.turn_timeout)
        except AgentTimeoutError:
            raise agent._redaction.error(await _time_out(agent, session, call)) from None
        return result_of(agent, raw, PromptResult, "session/prompt")
    except (JsonRpcError, AgentProtocolError) as exc:
        raise await _failure(agent, exc, "session/prompt", session.session_id) from None
    finally:
        call.close()


async def _time_out(agent: LiveAgent, session: LiveSession, call: Any) -> AgentTimeoutError:
    with contextlib.suppress(AgentProtocolError):
        await session.cancel()
    try:
        await call.result(CANCEL_GRACE)
        what = "was cancelled; the session is still usable"
    except (AgentTimeoutError, AgentProtocolError):
        if agent._process is not None:
            await agent._process.aclose(exit_grace=0)
        what = f"did not stop within {CANCEL_GRACE} s of its cancel: the agent was ended"
    return AgentTimeoutError(
        f"the turn took longer than turn_timeout={agent.turn_timeout} s and {what}",
        context=ErrorContext(session_id=session.session_id),
        hint="raise LiveAgent(turn_timeout=...) or split the prompt",
    )
