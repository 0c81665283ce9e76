"""What one run of ``sse_server.py`` sends its page: server-sent events made for drawing
(reply text, tool-call rows with label, arguments, status, duration and notes, a
background subagent's end, failures)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from agent_sdk import (
    AgentError,
    AssistantEvent,
    TaskNotification,
    ToolCall,
    ToolCallCompleted,
    ToolCallStarted,
)

# The SDK's one redaction (private to agent_sdk; these examples ship with it).
from agent_sdk._options.redaction import NO_SECRETS, HeldText, Redaction
from agent_sdk.cli.labels import call_notes, command_failure, failure_detail, result_detail

if __package__:  # uvicorn examples.sse_server:app
    from ._web_words import MAX_ARGS, MAX_VALUE, args_for_page, code_spans, title_of
else:  # python examples/sse_server.py
    from _web_words import MAX_ARGS, MAX_VALUE, args_for_page, code_spans, title_of

__all__ = ["MAX_ARGS", "MAX_NOTE", "MAX_VALUE", "PageStream", "sse", "tool_for_page"]

# Notes (what a subagent was asked and answered, a hook's context) are read, not glanced
# at: they keep their lines, up to this many characters.
MAX_NOTE = 2000


def long(text: str) -> str:
    """A note's text, cut at :data:`MAX_NOTE` characters."""
    return text if len(text) <= MAX_NOTE else text[: MAX_NOTE - 1] + "…"


def sse(event: str, data: Any) -> bytes:
    """One server-sent event. Compact JSON never holds a raw newline, so one data line."""
    return b"event: " + event.encode() + b"\ndata: " + msgspec.json.encode(data) + b"\n\n"


def tool_for_page(call: ToolCall, cwd: str | None = None) -> dict[str, Any]:
    """What the page draws for one tool call, as it is known now (``cwd``: the run's
    directory, which a card does not repeat).

    The label is the SDK's (:attr:`~agent_sdk.ToolCall.label`), or a live call's ACP
    title (docs/acp.md §3.10), whose code spans ``label_parts`` marks; a command that
    ran but did not exit 0 is ``failed`` (:attr:`~agent_sdk.ToolCall.ok`).
    """
    status, outcome = call.status or "running", call.outcome
    if status == "succeeded" and not call.ok:  # a command that ran but did not work
        status, outcome, detail = "failed", command_failure(call.result), ""
    elif status == "succeeded":
        detail = result_detail(call.result)
    elif call.status is not None:
        detail = failure_detail(call.result)
    else:
        detail = ""
    title = title_of(call)
    parts: list[list[Any]] = code_spans(title) if title else [[call.label, False]]
    return {
        "id": call.call_id,
        "kind": call.kind,
        "label": "".join(text for text, _ in parts),
        "label_parts": parts,
        "args": args_for_page(call, cwd),
        "status": status,
        "outcome": outcome,
        "exit_code": call.exit_code,
        "duration_ms": call.duration_ms,
        "detail": detail,
        "notes": [[what, long(text)] for what, text in call_notes(call)],
    }


def notice_for_page(event: TaskNotification) -> dict[str, Any]:
    """What the page draws when a background subagent has finished (docs/protocol.md
    §3.4b): its title (or id), how it ended, and what it answered."""
    return {
        "title": event.title or event.task_id or "a background task",
        "status": event.status or "unknown",
        "detail": long(event.detail or ""),
    }


class PageStream:
    """What one run sends its page, as server-sent events: agent_sdk events drawn as reply
    text and tool-call rows (a live turn's events are agent_sdk events too, so both modes
    draw alike), and failures as ``error``.


    Like the ``agent-sdk`` command's screen, the page shows no secret of the run (its API
    key, auth token, header values): every event is redacted, the reply as a whole text,
    since a key may be cut across its deltas (``redaction``).
    """

    def __init__(
        self, send: Callable[[bytes], Awaitable[None]], redaction: Redaction = NO_SECRETS
    ) -> None:
        self._send = send
        self._redaction = redaction
        self._reply = HeldText(redaction)
        # A streamed run keeps no events (flat memory): calls are paired as they pass,
        # and only the running ones are held.
        self.running: dict[str, ToolCallStarted] = {}
        self.calls = 0
        self.cwd: str | None = None  # the run's directory, once ``init`` has said it

    async def init(
        self, session_id: str | None, model: str | None, cwd: str | None, **more: Any
    ) -> None:
        """The ``init`` event: the session started (``more``: live mode's own keys)."""
        self.cwd = cwd
        await self.send("init", {"session_id": session_id, "model": model, "cwd": cwd, **more})

    async def send(self, event: str, data: Any) -> None:
        """One event to the page (nothing once the page is gone), redacted; the reply's
        held-back tail goes first."""
        held = self._reply.release()
        if held:
            await self._send(sse("text", {"text": held}))
        await self._send(sse(event, self._redaction.value(data)))

    async def draw(self, event: object) -> None:
        """Send what the page shows of ``event``; other events are not drawn."""
        if isinstance(event, ToolCallStarted | ToolCallCompleted | TaskNotification):
            # Redacted before the page's words are made of it: a label or value cut to
            # fit would otherwise keep the start of a secret that no longer matches whole.
            event = self._redaction.event(event)
        if isinstance(event, AssistantEvent):
            # The CLI repeats text in flushes: new text only.
            shown = self._reply.feed(event.new_text) if event.new_text else ""
            if shown:
                await self._send(sse("text", {"text": shown}))
        elif isinstance(event, ToolCallStarted):
            self.calls += 1
            self.running[event.call_id] = event
            await self.send("tool", tool_for_page(ToolCall(event.call_id, event), self.cwd))
        elif isinstance(event, ToolCallCompleted):
            started = self.running.pop(event.call_id, None)
            call = ToolCall(event.call_id, started, event)
            await self.send("tool", tool_for_page(call, self.cwd))
        elif isinstance(event, TaskNotification):
            await self.send("notice", notice_for_page(event))

    async def error(self, exc: AgentError) -> None:
        """What went wrong (what came before was sent already) and, for the failures the
        SDK recognises, how to fix it."""
        error = {"error": type(exc).__name__, "message": exc.message, "hint": exc.hint}
        await self.send("error", {**error, "exit_code": exc.exit_code})
