"""The public surface: what ``agent_sdk`` and its public modules export.

Adding or removing a public name is a decision: this file must change with it.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

import agent_sdk

PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"

PUBLIC: dict[str, list[str]] = {
    "agent_sdk": [
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
    ],
    "agent_sdk.events": [
        "AskQuestionRequest",
        "AskQuestionResponse",
        "AssistantEvent",
        "ConnectionEvent",
        "ContentBlock",
        "CreatePlanRequest",
        "CreatePlanResponse",
        "Event",
        "InteractionRequest",
        "InteractionResponse",
        "Message",
        "PartialAssistantEvent",
        "ResultEvent",
        "RetryEvent",
        "SystemEvent",
        "SystemInit",
        "TaskNotification",
        "TextLine",
        "ThinkingBlock",
        "ThinkingCompleted",
        "ThinkingDelta",
        "ToolCallCompleted",
        "ToolCallStarted",
        "UnknownEvent",
        "Usage",
        "UserEvent",
        "WebFetchRequest",
        "WebFetchResponse",
        "WebSearchRequest",
        "WebSearchResponse",
        "to_json",
    ],
    "agent_sdk.budget": [
        "Budget",
        "kind_word",
    ],
    "agent_sdk.errors": [
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
        "ErrorContext",
    ],
    "agent_sdk.changes": [
        "Changes",
        "Checkpoint",
    ],
    "agent_sdk.checkpoints": [
        "Changes",
        "Checkpoint",
        "RewindResult",
        "changes",
        "checkpoint",
        "finish",
        "list_checkpoints",
        "prune",
        "remove_checkpoint",
        "rewind",
        "running",
    ],
    "agent_sdk.tool_calls": [
        "Plan",
        "ToolCall",
        "ToolCallStatus",
    ],
    "agent_sdk.tools": [
        "ApplyPatch",
        "AskQuestionArgs",
        "AskQuestionItem",
        "AskQuestionOption",
        "CommandArg",
        "CreatePlanArgs",
        "CreatePlanSuccess",
        "CustomSubagent",
        "DeleteArgs",
        "DeleteSuccess",
        "EditArgs",
        "EditSuccess",
        "ExecutableCommand",
        "FunctionArgs",
        "GetMcpToolsArgs",
        "GetMcpToolsSuccess",
        "GlobArgs",
        "GlobSuccess",
        "GrepArgs",
        "GrepContent",
        "GrepFileMatches",
        "GrepFiles",
        "GrepLineMatch",
        "GrepSuccess",
        "GrepWorkspaceResult",
        "LsArgs",
        "LsSuccess",
        "McpArgs",
        "McpContent",
        "McpSuccess",
        "McpText",
        "MultiStrReplace",
        "ParsingResult",
        "PermissionDenied",
        "PlanTodo",
        "ReadArgs",
        "ReadRange",
        "ReadSuccess",
        "Rejection",
        "ShellArgs",
        "ShellSuccess",
        "StrReplace",
        "SubagentType",
        "TaskArgs",
        "TaskMessage",
        "TaskStep",
        "TaskSuccess",
        "Todo",
        "ToolArgs",
        "ToolFailure",
        "ToolResult",
        "UpdateTodosArgs",
        "UpdateTodosSuccess",
        "WebFetchArgs",
        "WebSearchArgs",
        "WriteArgs",
        "WritePermissionDenied",
        "WriteSuccess",
    ],
    "agent_sdk.extend": [
        "Allow",
        "Approval",
        "ApprovalCallback",
        "CustomToolCall",
        "Decision",
        "Deny",
        "Edit",
        "FileEdited",
        "HookPayload",
        "Hooks",
        "SessionEnded",
        "SessionStarted",
        "ShellCommand",
        "Tool",
        "ToolUse",
        "ToolUsed",
        "approval_hooks",
        "approval_permission",
        "tool",
    ],
    "agent_sdk.subagents": [
        "Subagent",
    ],
    "agent_sdk.testing": [
        "Exit",
        "FakeAgent",
        "MemoryTransport",
        "Output",
        "Pause",
        "Stderr",
        "Step",
        "fake_cursor_agent",
        "record",
    ],
}

MODULES = list(PUBLIC)
NAMES = [(module, name) for module, names in PUBLIC.items() for name in names]


def pyproject_version() -> str:
    text = PYPROJECT.read_text("utf-8")
    if sys.version_info >= (3, 11):
        import tomllib

        return str(tomllib.loads(text)["project"]["version"])
    match = re.search(r'^\[project\]$.*?^version\s*=\s*"([^"]+)"', text, re.MULTILINE | re.DOTALL)
    assert match is not None, "no version in [project] of pyproject.toml"
    return match[1]


def test_the_expected_lists_are_sorted_and_without_duplicates() -> None:
    # The lists above are the reference: keep them sorted so a diff reads well.
    assert {module: sorted(set(names)) for module, names in PUBLIC.items()} == PUBLIC


@pytest.mark.parametrize("module", MODULES)
def test_all_holds_exactly_the_public_names(module: str) -> None:
    exported = importlib.import_module(module).__all__
    assert sorted(exported) == PUBLIC[module]
    assert len(set(exported)) == len(exported)


@pytest.mark.parametrize("module", MODULES)
def test_all_is_in_sorted_order(module: str) -> None:
    assert importlib.import_module(module).__all__ == PUBLIC[module]


@pytest.mark.parametrize(("module", "name"), NAMES, ids=[f"{m}.{n}" for m, n in NAMES])
def test_every_public_name_is_importable(module: str, name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from {module} import {name}", namespace)
    assert namespace[name] is getattr(importlib.import_module(module), name)


def test_every_error_is_exported_from_the_package() -> None:
    assert set(PUBLIC["agent_sdk.errors"]) <= set(agent_sdk.__all__)


def test_the_version_is_the_one_in_pyproject() -> None:
    assert agent_sdk.__version__ == pyproject_version()
