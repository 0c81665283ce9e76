"""Typed shapes of the agent→client requests: ``session/request_permission`` (docs/acp.md
§3.11) and the blocking Cursor extensions ``cursor/ask_question``, ``cursor/create_plan``
(§4). Answers are **nested** under ``outcome``: a flat one reads as cancel (§4).
"""

from __future__ import annotations

from typing import Any

import msgspec

from ._messages import _Wire

__all__ = [
    "AnsweredOutcome",
    "AskQuestionParams",
    "AskQuestionResult",
    "CancelledOutcome",
    "CreatePlanParams",
    "CreatePlanResult",
    "PermissionOption",
    "PermissionToolCall",
    "PlanAcceptedOutcome",
    "PlanRejectedOutcome",
    "PlanTodo",
    "Question",
    "QuestionAnswer",
    "QuestionOption",
    "QuestionSkippedOutcome",
    "RequestPermissionParams",
    "RequestPermissionResult",
    "SelectedOutcome",
    "TaskParams",
]


# --- session/request_permission (§3.11) -------------------------------------------------------
class PermissionOption(_Wire):
    """One answer the agent offers; choose by ``kind``, answer with ``option_id``."""

    option_id: str
    name: str = ""
    kind: str = ""


class PermissionToolCall(_Wire):
    """The tool call asked about; its ``status`` says ``pending`` even after an
    ``in_progress`` update: trust the update stream (§2 note)."""

    tool_call_id: str
    title: str | None = None
    kind: str | None = None
    status: str | None = None
    content: list[Any] | None = None
    raw_input: Any = None


class RequestPermissionParams(_Wire):
    """``session/request_permission`` params."""

    session_id: str
    tool_call: PermissionToolCall
    options: list[PermissionOption] = msgspec.field(default_factory=list)


class SelectedOutcome(_Wire, tag_field="outcome", tag="selected"):
    """The option chosen; only the two allow ids run the tool (§3.11)."""

    option_id: str


class CancelledOutcome(_Wire, tag_field="outcome", tag="cancelled"):
    """Cancelled: a rejection for a permission; also the answer to every pending request
    after ``session/cancel`` (§3.7)."""


class RequestPermissionResult(_Wire):
    """The answer: the outcome **nested** under ``outcome`` (§3.11, §4)."""

    outcome: SelectedOutcome | CancelledOutcome


# --- cursor/ask_question, cursor/create_plan (§4) -------------------------------------------------
class QuestionOption(_Wire):
    """A possible answer."""

    id: str
    label: str = ""


class Question(_Wire):
    """One question of ``cursor/ask_question``."""

    id: str
    prompt: str = ""
    options: list[QuestionOption] = msgspec.field(default_factory=list)
    allow_multiple: bool | None = None


class AskQuestionParams(_Wire):
    """``cursor/ask_question`` params (documented; no real capture, §4)."""

    tool_call_id: str
    title: str | None = None
    questions: list[Question] = msgspec.field(default_factory=list)


class QuestionAnswer(_Wire):
    """The options chosen for one question."""

    question_id: str
    selected_option_ids: list[str] = msgspec.field(default_factory=list)


class AnsweredOutcome(_Wire, tag_field="outcome", tag="answered"):
    """The questions answered."""

    answers: list[QuestionAnswer] = msgspec.field(default_factory=list)


class QuestionSkippedOutcome(_Wire, tag_field="outcome", tag="skipped"):
    """The questions skipped."""

    reason: str | None = None


class AskQuestionResult(_Wire):
    """The answer, nested under ``outcome`` (a flat one reads as cancel, §4)."""

    outcome: AnsweredOutcome | QuestionSkippedOutcome | CancelledOutcome


class PlanTodo(_Wire):
    """A plan's todo: status ``pending|in_progress|completed|cancelled``."""

    id: str
    content: str = ""
    status: str | None = None


class _Phase(_Wire):
    name: str = ""
    todos: list[PlanTodo] = msgspec.field(default_factory=list)


class CreatePlanParams(_Wire):
    """``cursor/create_plan`` params (seen in plan mode, §4)."""

    tool_call_id: str
    name: str | None = None
    overview: str | None = None
    plan: str = ""
    todos: list[PlanTodo] = msgspec.field(default_factory=list)
    is_project: bool | None = None
    phases: list[_Phase] | None = None


class PlanAcceptedOutcome(_Wire, tag_field="outcome", tag="accepted"):
    """The plan accepted."""

    plan_uri: str | None = None


class PlanRejectedOutcome(_Wire, tag_field="outcome", tag="rejected"):
    """The plan rejected."""

    reason: str | None = None


class CreatePlanResult(_Wire):
    """The answer, nested under ``outcome`` (§4)."""

    outcome: PlanAcceptedOutcome | PlanRejectedOutcome | CancelledOutcome


# --- cursor/task (§4, §3.13) ------------------------------------------------------------------
class TaskParams(_Wire):
    """``cursor/task``: a Task (subagent) call completed (§4). ``subagent_type`` is any JSON
    (``{"custom": {"unspecified": {}}}`` was seen, not the docs' strings); ``model`` is the
    model the child really used; ``duration_ms`` the whole run of a foreground child, only
    the launch of a background one; ``agent_id`` is not the child's session id."""

    tool_call_id: str
    description: str = ""
    prompt: str = ""
    subagent_type: Any = None
    model: str | None = None
    agent_id: str | None = None
    duration_ms: int | float | str | None = None
