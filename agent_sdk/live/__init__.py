"""A live agent: the CLI's ACP mode (``cursor-agent acp``, docs/acp.md; docs/live.md).

One long-lived process, many sessions, turns streamed as agent_sdk events, and the
agent's questions (tool permissions, ``cursor/*`` requests) answered in Python::

    async with LiveAgent(permission=decide) as agent:
        session = await agent.new_session()
        result = await session.send("Run the tests")
"""

from ._agent import AgentState, LiveAgent
from ._bridge import LiveEvent, SubagentEvent
from ._dispatch import default_ask_question
from ._errors import LiveAuthError, LiveModelError
from ._jsonrpc import JsonRpcError, Malformed
from ._messages import (
    ConfigOption,
    ConfigOptionGroup,
    ConfigOptionValue,
    ContentBlock,
    ModelInfo,
    PromptResult,
    SessionListing,
    SessionMode,
)
from ._requests import (
    AnsweredOutcome,
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    PermissionOption,
    PermissionToolCall,
    PlanAcceptedOutcome,
    PlanRejectedOutcome,
    PlanTodo,
    Question,
    QuestionAnswer,
    QuestionOption,
    QuestionSkippedOutcome,
    RequestPermissionParams,
    SelectedOutcome,
    TaskParams,
)
from ._result import LiveResult
from ._seam import LiveTransport
from ._session import (
    AskQuestionCallback,
    CreatePlanCallback,
    LiveSession,
    PermissionCallback,
    PermissionDecision,
)
from ._subagents import Subagent, TaskCallback
from ._turn import LiveTurn, TurnUpdates
from ._updates import (
    AcpPlan,
    AcpToolCall,
    AcpToolCallUpdate,
    AgentMessageChunk,
    AgentThoughtChunk,
    AvailableCommand,
    AvailableCommandsUpdate,
    ConfigOptionUpdate,
    Cost,
    CurrentModeUpdate,
    PlanEntry,
    SessionInfoUpdate,
    SessionUpdate,
    SubagentSpawned,
    SubagentStateUpdate,
    SubagentUpdate,
    UnknownUpdate,
    UsageUpdate,
    UserMessageChunk,
)

__all__ = [
    "AcpPlan",
    "AcpToolCall",
    "AcpToolCallUpdate",
    "AgentMessageChunk",
    "AgentState",
    "AgentThoughtChunk",
    "AnsweredOutcome",
    "AskQuestionCallback",
    "AskQuestionParams",
    "AskQuestionResult",
    "AvailableCommand",
    "AvailableCommandsUpdate",
    "CancelledOutcome",
    "ConfigOption",
    "ConfigOptionGroup",
    "ConfigOptionUpdate",
    "ConfigOptionValue",
    "ContentBlock",
    "Cost",
    "CreatePlanCallback",
    "CreatePlanParams",
    "CreatePlanResult",
    "CurrentModeUpdate",
    "JsonRpcError",
    "LiveAgent",
    "LiveAuthError",
    "LiveEvent",
    "LiveModelError",
    "LiveResult",
    "LiveSession",
    "LiveTransport",
    "LiveTurn",
    "Malformed",
    "ModelInfo",
    "PermissionCallback",
    "PermissionDecision",
    "PermissionOption",
    "PermissionToolCall",
    "PlanAcceptedOutcome",
    "PlanEntry",
    "PlanRejectedOutcome",
    "PlanTodo",
    "PromptResult",
    "Question",
    "QuestionAnswer",
    "QuestionOption",
    "QuestionSkippedOutcome",
    "RequestPermissionParams",
    "SelectedOutcome",
    "SessionInfoUpdate",
    "SessionListing",
    "SessionMode",
    "SessionUpdate",
    "Subagent",
    "SubagentEvent",
    "SubagentSpawned",
    "SubagentStateUpdate",
    "SubagentUpdate",
    "TaskCallback",
    "TaskParams",
    "TurnUpdates",
    "UnknownUpdate",
    "UsageUpdate",
    "UserMessageChunk",
    "default_ask_question",
]
