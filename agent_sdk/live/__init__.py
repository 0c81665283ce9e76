"""A live client of the CLI's ACP mode (``cursor-agent acp``, docs/acp.md).

One long-lived process, many sessions, prompts streamed as typed updates, and the agent's
questions (permissions, ``cursor/*`` requests) answered in Python. Experimental: the first
layer (JSON-RPC, messages, connection, agent); see :class:`LiveAgent`.
"""

from __future__ import annotations

from ._agent import LiveAgent
from ._jsonrpc import JsonRpcError
from ._messages import (
    AgentMessageChunk,
    AgentThoughtChunk,
    AvailableCommandsUpdate,
    CurrentModeUpdate,
    Plan,
    PromptResult,
    SessionInfoUpdate,
    SessionUpdate,
    ToolCall,
    ToolCallUpdate,
    UnknownUpdate,
    UserMessageChunk,
)
from ._requests import (
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    RequestPermissionParams,
    SelectedOutcome,
)
from ._session import (
    AskQuestionCallback,
    CreatePlanCallback,
    LiveSession,
    PermissionCallback,
    PermissionDecision,
)

__all__ = [
    "AgentMessageChunk",
    "AgentThoughtChunk",
    "AskQuestionCallback",
    "AskQuestionParams",
    "AskQuestionResult",
    "AvailableCommandsUpdate",
    "CancelledOutcome",
    "CreatePlanCallback",
    "CreatePlanParams",
    "CreatePlanResult",
    "CurrentModeUpdate",
    "JsonRpcError",
    "LiveAgent",
    "LiveSession",
    "PermissionCallback",
    "PermissionDecision",
    "Plan",
    "PromptResult",
    "RequestPermissionParams",
    "SelectedOutcome",
    "SessionInfoUpdate",
    "SessionUpdate",
    "ToolCall",
    "ToolCallUpdate",
    "UnknownUpdate",
    "UserMessageChunk",
]
