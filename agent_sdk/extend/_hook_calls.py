"""One hook call on a connection to the host (docs/extend.md, "How hooks reach the
program"): the event the relay sends until it half-closes, answered by
:func:`~agent_sdk.extend._hooks.answer`, framed for the relay as ``<exit code> <stdout
bytes> <stderr bytes>``, a newline, then those bytes."""

from __future__ import annotations

import anyio
import anyio.abc

from ._hooks import HookReply, Hooks, answer, blocked
from ._mcp_answers import McpAnswers

__all__ = ["HOOK_PAYLOAD_MAX", "hook_call", "reply_bytes"]

HOOK_PAYLOAD_MAX = 64 * 1024 * 1024  # bytes of one hook event (a Write carries the file)


def reply_bytes(reply: HookReply) -> bytes:
    """``reply`` as the relay reads it."""
    head = f"{reply.exit_code} {len(reply.stdout)} {len(reply.stderr)}\n"
    return head.encode() + reply.stdout + reply.stderr


async def hook_call(
    hooks: Hooks | None,
    stream: anyio.abc.ByteReceiveStream,
    errors: list[BaseException],
    mcp: McpAnswers | None = None,
) -> bytes:
    """The framed answer to the event on ``stream``; the callbacks' failures go to
    ``errors``; ``mcp``: the run's MCP answers (``answer``). Without ``hooks`` (a run that
    has none) the call is blocked (exit 2)."""
    # Read to the end first, whatever the answer: a reply before the relay has sent
    # everything would break its pipe, and the words of the reply with it.
    data = bytearray()
    while True:
        try:
            data += await stream.receive()
        except anyio.EndOfStream:
            break
        if len(data) > HOOK_PAYLOAD_MAX:
            return reply_bytes(blocked("the hook event is too large"))
    if hooks is None:
        return reply_bytes(blocked("this run has no hooks"))
    return reply_bytes(await answer(hooks, bytes(data), errors, mcp))
