"""agent_sdk: drive Cursor's coding agent (the ``cursor-agent`` CLI) from Python.

Typed events streamed from the CLI's headless mode, clear exceptions, no leaked processes::

    from agent_sdk import run, run_sync

    print(run_sync("What does this repo do?").result)

    async for event in run("Add a test for cart totals"):
        print(event)

Where everything is, layer by layer: docs/architecture.md.
"""

from typing import TYPE_CHECKING

# not .options: its argv builder loads with the first run
from ._options.agent_options import AgentOptions
from ._run.run_sync import run_sync
from .budget import Budget
from .errors import (
    AgentAuthError,
    AgentBudgetError,
    AgentCallbackError,
    AgentChannelError,
    AgentCheckpointError,
    AgentConfigError,
    AgentConfigRaceError,
    AgentError,
    AgentModelError,
    AgentNotFoundError,
    AgentOptionError,
    AgentOutputError,
    AgentProcessError,
    AgentProtocolError,
    AgentRefusedError,
    AgentResultError,
    AgentRetriableError,
    AgentSessionInUseError,
    AgentStartError,
    AgentTimeoutError,
    AgentTrustError,
    AgentUsageError,
    AgentUsageLimitError,
    AgentWorkspaceError,
    ErrorContext,
)
from .events import (
    AskQuestionRequest,
    AskQuestionResponse,
    AssistantEvent,
    ConnectionEvent,
    CreatePlanRequest,
    CreatePlanResponse,
    Event,
    InteractionRequest,
    InteractionResponse,
    PartialAssistantEvent,
    ResultEvent,
    RetryEvent,
    SystemEvent,
    SystemInit,
    TaskNotification,
    TextLine,
    ThinkingBlock,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    UserEvent,
    WebFetchRequest,
    WebFetchResponse,
    WebSearchRequest,
    WebSearchResponse,
)
from .result import RunResult
from .subagents import Subagent
from .tool_calls import Plan, ToolCall, ToolCallStatus

if TYPE_CHECKING:
    from ._options.session_id import new_session_id
    from ._run.run import Run, run
    from ._run.run_async import run_async
    from ._transport.base import Transport
    from .queries import Model, Status, create_chat, list_models, status, version
    from .session import Session, Turn
else:
    # Sessions and the short subcommands load on first use: a run needs neither. The
    # run's engine and argv builder load with the first run (run_sync loads them itself):
    # `import agent_sdk` is a cost every script pays, even one that never runs (its
    # --help), and they were a third of it (docs/benchmarks.md, "A short script: the cold
    # figure").
    _ON_FIRST_USE = {
        **dict.fromkeys(("Run", "run"), "._run.run"),
        "run_async": "._run.run_async",
        "Transport": "._transport.base",
        "new_session_id": "._options.session_id",
        **dict.fromkeys(("Session", "Turn"), ".session"),
        **dict.fromkeys(
            ("Model", "Status", "create_chat", "list_models", "status", "version"), ".queries"
        ),
        # The public module of build_invocation, once loaded by `import agent_sdk`:
        # `agent_sdk.options` still finds it.
        "options": ".options",
    }

    def __getattr__(name: str) -> object:
        module = _ON_FIRST_USE.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        loaded = importlib.import_module(module, __name__)
        value = loaded if module == f".{name}" else getattr(loaded, name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


from ._version import __version__

__all__ = [
    "AgentAuthError",
    "AgentBudgetError",
    "AgentCallbackError",
    "AgentChannelError",
    "AgentCheckpointError",
    "AgentConfigError",
    "AgentConfigRaceError",
    "AgentError",
    "AgentModelError",
    "AgentNotFoundError",
    "AgentOptionError",
    "AgentOptions",
    "AgentOutputError",
    "AgentProcessError",
    "AgentProtocolError",
    "AgentRefusedError",
    "AgentResultError",
    "AgentRetriableError",
    "AgentSessionInUseError",
    "AgentStartError",
    "AgentTimeoutError",
    "AgentTrustError",
    "AgentUsageError",
    "AgentUsageLimitError",
    "AgentWorkspaceError",
    "AskQuestionRequest",
    "AskQuestionResponse",
    "AssistantEvent",
    "Budget",
    "ConnectionEvent",
    "CreatePlanRequest",
    "CreatePlanResponse",
    "ErrorContext",
    "Event",
    "InteractionRequest",
    "InteractionResponse",
    "Model",
    "PartialAssistantEvent",
    "Plan",
    "ResultEvent",
    "RetryEvent",
    "Run",
    "RunResult",
    "Session",
    "Status",
    "Subagent",
    "SystemEvent",
    "SystemInit",
    "TaskNotification",
    "TextLine",
    "ThinkingBlock",
    "ThinkingCompleted",
    "ThinkingDelta",
    "ToolCall",
    "ToolCallCompleted",
    "ToolCallStarted",
    "ToolCallStatus",
    "Transport",
    "Turn",
    "UnknownEvent",
    "Usage",
    "UserEvent",
    "WebFetchRequest",
    "WebFetchResponse",
    "WebSearchRequest",
    "WebSearchResponse",
    "__version__",
    "create_chat",
    "list_models",
    "new_session_id",
    "run",
    "run_async",
    "run_sync",
    "status",
    "version",
]
