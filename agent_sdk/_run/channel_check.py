"""Whether the CLI reached a run's own tools and hooks before the agent acts
(docs/extend.md, "Never silently bypassed").

A print run starts its stdio MCP servers before it works (docs/protocol.md §7,
documented) and fires ``sessionStart`` at its start (§6.2, seen), and each waits for our
relay's answer: so by the time the stream shows the agent at work (its first reply,
thought or tool call) the run's host has been reached, or the CLI did not load what the
run gave it. Checked once, at that first event; nothing after.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._wire.interaction_events import InteractionRequest
from .._wire.tool_call_events import ToolCallCompleted, ToolCallStarted
from ..errors import AgentChannelError, ErrorContext
from ..events import AssistantEvent, ResultEvent, ThinkingCompleted, ThinkingDelta

__all__ = ["channel_error", "first_act"]

#: What shows the agent at work: a model's output, or a tool call. Not the CLI's own
#: start, the prompt's echo, its connection and retry notes, nor an event it does not know.
_ACTS = (
    AssistantEvent,
    ThinkingDelta,
    ThinkingCompleted,
    ToolCallStarted,
    ToolCallCompleted,
    InteractionRequest,
    ResultEvent,
)


def first_act(events: Sequence[object]) -> int | None:
    """The index of the first event that shows the agent at work, if any (a failed
    result is not one: the CLI's own error says more)."""
    for index, event in enumerate(events):
        if not isinstance(event, _ACTS):
            continue
        if isinstance(event, ResultEvent) and event.is_error:
            return None
        return index
    return None


def channel_error(
    missing: tuple[str, ...], channel: str, context: ErrorContext
) -> AgentChannelError:
    """The error of a run whose CLI did not reach ``missing`` (``"tools"``, ``"hooks"``)."""
    what = " and ".join(f"its {name}" for name in missing)
    causes = {
        "plugin": "a build that ignores --plugin-dir or needs its servers approved: try "
        "tools_channel='home'",
        "home": "a CLI that is signed out under the run's own HOME (on macOS give api_key "
        "with AGENT_CLI_CREDENTIAL_STORE=file in env), or a build that ignores ~/.cursor",
    }
    hint = (
        f"the CLI never started the run's server or ran its hooks: {causes.get(channel, '')}; "
        "an old CLI may not load them either (update it)"
    )
    return AgentChannelError(
        f"the CLI did not load {what} (tools_channel={channel!r}): the run was ended when "
        "the agent began, before it could act without them",
        missing=missing,
        channel=channel,
        context=context,
        hint=hint,
    )
