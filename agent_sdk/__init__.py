"""agent_sdk: drive Cursor's coding agent (the ``cursor-agent`` CLI) from Python.

Typed events streamed from the CLI's headless mode, clear exceptions, no leaked processes::

    from agent_sdk import run, run_sync

    print(run_sync("What does this repo do?").result)

    async for event in run("Add a test for cart totals"):
        print(event)
"""

from ._run import Run, run, run_async, run_sync
from .errors import (
    AgentAuthError,
    AgentError,
    AgentModelError,
    AgentNotFoundError,
    AgentOptionError,
    AgentProcessError,
    AgentProtocolError,
    AgentResultError,
    AgentRetriableError,
    AgentTimeoutError,
    AgentTrustError,
    AgentUsageLimitError,
    AgentWorkspaceError,
)
from .events import (
    AssistantEvent,
    ConnectionEvent,
    Event,
    ResultEvent,
    RetryEvent,
    SystemEvent,
    SystemInit,
    TextLine,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    UserEvent,
)
from .options import AgentOptions
from .result import RunResult
from .tool_calls import ToolCall

__all__ = [
    "AgentAuthError",
    "AgentError",
    "AgentModelError",
    "AgentNotFoundError",
    "AgentOptionError",
    "AgentOptions",
    "AgentProcessError",
    "AgentProtocolError",
    "AgentResultError",
    "AgentRetriableError",
    "AgentTimeoutError",
    "AgentTrustError",
    "AgentUsageLimitError",
    "AgentWorkspaceError",
    "AssistantEvent",
    "ConnectionEvent",
    "Event",
    "ResultEvent",
    "RetryEvent",
    "Run",
    "RunResult",
    "SystemEvent",
    "SystemInit",
    "TextLine",
    "ThinkingCompleted",
    "ThinkingDelta",
    "ToolCall",
    "ToolCallCompleted",
    "ToolCallStarted",
    "UnknownEvent",
    "Usage",
    "UserEvent",
    "run",
    "run_async",
    "run_sync",
]
