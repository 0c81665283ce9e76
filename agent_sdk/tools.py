"""Typed arguments and results of the agent's tool calls (docs/protocol.md §3.4).

Field names are the wire's in snake_case (``workingDirectory`` is ``working_directory``,
mapped by msgspec). Every field but the essential ones has a default (the CLI adds and
drops fields); unknown fields are ignored; an unknown kind keeps plain dicts. The
arguments are defined here, the results in :mod:`agent_sdk.tool_results` (re-exported).
"""

from __future__ import annotations

from typing import Any

import msgspec

from .tool_results import (
    CreatePlanSuccess,
    DeleteSuccess,
    EditSuccess,
    GetMcpToolsSuccess,
    GlobSuccess,
    GrepContent,
    GrepFileMatches,
    GrepFiles,
    GrepLineMatch,
    GrepSuccess,
    GrepWorkspaceResult,
    LsSuccess,
    McpContent,
    McpSuccess,
    McpText,
    PermissionDenied,
    PlanTodo,
    ReadRange,
    ReadSuccess,
    Rejection,
    ShellSuccess,
    TaskMessage,
    TaskStep,
    TaskSuccess,
    Todo,
    ToolFailure,
    ToolResult,
    UpdateTodosSuccess,
    WritePermissionDenied,
    WriteSuccess,
    _decode_json,
    _Payload,
)

__all__ = [
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
]


# --- read ---------------------------------------------------------------------------
class ReadArgs(_Payload, frozen=True):
    """Arguments of ``readToolCall``."""

    path: str = ""
    offset: int | None = None
    limit: int | None = None


# --- write / edit -------------------------------------------------------------------
class WriteArgs(_Payload, frozen=True):
    """Arguments of ``writeToolCall``."""

    path: str = ""
    file_text: str | None = None
    tool_call_id: str | None = None


class StrReplace(_Payload, frozen=True):
    old_text: str = ""
    new_text: str = ""
    replace_all: bool = False


class MultiStrReplace(_Payload, frozen=True):
    edits: list[StrReplace] = msgspec.field(default_factory=list)


class ApplyPatch(_Payload, frozen=True):
    patch_content: str = ""


class EditArgs(_Payload, frozen=True):
    """Arguments of ``editToolCall``: one of a whole new file, replacements or a patch."""

    path: str = ""
    stream_content: str | None = None
    str_replace: StrReplace | None = None
    multi_str_replace: MultiStrReplace | None = None
    apply_patch: ApplyPatch | None = None


class DeleteArgs(_Payload, frozen=True):
    path: str = ""
    tool_call_id: str | None = None


# --- shell --------------------------------------------------------------------------
class CommandArg(_Payload, frozen=True):
    """One word of a parsed command: its ``type`` (``"word"``, ...) and ``value``."""

    type: str = ""
    value: str = ""


class ExecutableCommand(_Payload, frozen=True):
    """One command the CLI found in a shell command line: its ``name``, its ``args``
    and the ``fullText`` it was parsed from."""

    name: str = ""
    args: list[CommandArg] = msgspec.field(default_factory=list)
    full_text: str = ""


class ParsingResult(_Payload, frozen=True):
    """How the CLI parsed a shell command line (``shellToolCall`` args' ``parsingResult``):
    the commands it will run, and whether the line redirects or substitutes commands.
    ``redirects`` is kept as it came (only ever seen empty)."""

    parsing_failed: bool | None = None
    executable_commands: list[ExecutableCommand] = msgspec.field(default_factory=list)
    has_redirects: bool | None = None
    has_command_substitution: bool | None = None
    redirects: list[Any] = msgspec.field(default_factory=list)


class ShellArgs(_Payload, frozen=True):
    """Arguments of ``shellToolCall``.

    ``timeout`` and ``hardTimeout`` are in milliseconds; ``timeoutBehavior`` says what
    happens at ``timeout`` (``TIMEOUT_BEHAVIOR_BACKGROUND``: the command goes on in the
    background). ``description`` is the agent's own words for the command.
    ``fileOutputThresholdBytes`` is written by the CLI as a string of digits: see
    :attr:`file_output_threshold_bytes`. ``parsingResult`` is how the CLI parsed the
    command (:class:`ParsingResult`).
    """

    command: str = ""
    working_directory: str | None = None
    timeout: int | None = None
    hard_timeout: int | None = None
    timeout_behavior: str | None = None
    description: str | None = None
    tool_call_id: str | None = None
    simple_commands: list[str] | None = None
    is_background: bool | None = None
    close_stdin: bool | None = None
    skip_approval: bool | None = None
    has_input_redirect: bool | None = None
    has_output_redirect: bool | None = None
    conversation_id: str | None = None
    request_id: str | None = None
    admin_command_denylist: list[Any] | None = None
    _file_output_threshold_bytes: str | int | None = None
    parsing_result: ParsingResult | None = None

    @property
    def file_output_threshold_bytes(self) -> int | None:
        """The wire's ``fileOutputThresholdBytes`` as a number (``None`` if absent or not
        digits)."""
        value = self._file_output_threshold_bytes
        if isinstance(value, int):
            return value
        return int(value) if value is not None and value.isascii() and value.isdigit() else None


# --- search -------------------------------------------------------------------------
class GrepArgs(_Payload, frozen=True):
    """Arguments of ``grepToolCall``: ``glob`` limits the files searched, ``offset``
    skips that many results."""

    pattern: str = ""
    path: str | None = None
    output_mode: str | None = None
    glob: str | None = None
    offset: int | None = None
    case_insensitive: bool | None = None
    multiline: bool | None = None
    tool_call_id: str | None = None


class GlobArgs(_Payload, frozen=True):
    glob_pattern: str = ""
    target_directory: str | None = None


class LsArgs(_Payload, frozen=True):
    path: str = ""
    ignore: list[str] = msgspec.field(default_factory=list)


# --- todos and plans ----------------------------------------------------------------
class UpdateTodosArgs(_Payload, frozen=True):
    todos: list[Todo] = msgspec.field(default_factory=list)
    merge: bool | None = None


class CreatePlanArgs(_Payload, frozen=True):
    """Arguments of ``createPlanToolCall`` (plan mode): the plan itself.

    ``plan`` is markdown, ``name`` a title, ``overview`` a summary, ``todos`` its
    steps; ``phases`` is kept as it came (only ever seen empty). A run's plan is also
    on :attr:`agent_sdk.RunResult.plan`.
    """

    plan: str = ""
    todos: list[PlanTodo] = msgspec.field(default_factory=list)
    overview: str = ""
    name: str = ""
    is_project: bool = False
    phases: list[Any] = msgspec.field(default_factory=list)


# --- subagents ---------------------------------------------------------------------
class CustomSubagent(_Payload, frozen=True):
    """A subagent defined in ``.cursor/agents/<name>.md``."""

    name: str = ""


class SubagentType(_Payload, frozen=True):
    """``subagentType``: ``unspecified`` (``{}``) for the general agent, else ``custom``."""

    unspecified: dict[str, Any] | None = None
    custom: CustomSubagent | None = None


class TaskArgs(_Payload, frozen=True):
    """Arguments of ``taskToolCall``: work handed to a subagent (docs/protocol.md §3.4b).

    ``description`` is a short title, ``prompt`` what the child was asked, ``subagentType``
    which agent (:class:`SubagentType`, :attr:`subagent_name`); ``mode`` and
    ``environment`` are kept as they came."""

    description: str = ""
    prompt: str = ""
    subagent_type: SubagentType | None = None
    model: str | None = None
    agent_id: str | None = None
    mode: str | None = None
    environment: str | None = None

    @property
    def subagent_name(self) -> str | None:
        """The custom agent's name; ``None`` for the built-in general agent."""
        custom = self.subagent_type.custom if self.subagent_type is not None else None
        return custom.name if custom is not None and custom.name else None


# --- MCP, functions -----------------------------------------------------------------
class McpArgs(_Payload, frozen=True):
    name: str = ""
    args: dict[str, Any] = msgspec.field(default_factory=dict)
    tool_name: str | None = None
    provider_identifier: str | None = None


class GetMcpToolsArgs(_Payload, frozen=True):
    """Arguments of ``getMcpToolsToolCall``: a look-up among the tools of MCP ``server``
    (``"cursor"``: the CLI's built-in tools), either a search for ``pattern`` or the one
    tool named ``toolName`` (the other is then absent: ``""`` / ``None``)."""

    server: str = ""
    pattern: str = ""
    tool_name: str | None = None
    tool_call_id: str | None = None


class FunctionArgs(_Payload, frozen=True):
    """A ``function`` call: ``arguments`` is a JSON string, see :meth:`parsed_arguments`."""

    name: str = ""
    arguments: str = ""

    def parsed_arguments(self) -> Any:
        """The ``arguments`` JSON string decoded (raises ``msgspec.DecodeError`` if invalid)."""
        return _decode_json(self.arguments)


# --- web and questions (interaction_query, docs/protocol.md §3.6b) -------------------
class WebSearchArgs(_Payload, frozen=True):
    """What a web search asks (a ``webSearchRequestQuery``): ``searchTerm``, and the
    ``toolCallId`` of the call it is for."""

    search_term: str = ""
    tool_call_id: str | None = None


class WebFetchArgs(_Payload, frozen=True):
    """What a web fetch asks (a ``webFetchRequestQuery``): the ``url``, and the
    ``toolCallId`` of the call it is for."""

    url: str = ""
    tool_call_id: str | None = None


class AskQuestionOption(_Payload, frozen=True):
    id: str = ""
    label: str = ""


class AskQuestionItem(_Payload, frozen=True):
    """One question: its ``prompt``, the ``options`` to pick from, and whether several
    may be picked (``allowMultiple``)."""

    id: str = ""
    prompt: str = ""
    options: list[AskQuestionOption] = msgspec.field(default_factory=list)
    allow_multiple: bool | None = None


class AskQuestionArgs(_Payload, frozen=True):
    """What the agent asks the user (an ``askQuestionInteractionQuery``): a ``title``
    and its ``questions``. A headless run never waits for the answer (docs/protocol.md
    §3.6b)."""

    title: str = ""
    questions: list[AskQuestionItem] = msgspec.field(default_factory=list)


ToolArgs = (
    ReadArgs
    | WriteArgs
    | EditArgs
    | ShellArgs
    | GrepArgs
    | GlobArgs
    | LsArgs
    | DeleteArgs
    | UpdateTodosArgs
    | CreatePlanArgs
    | TaskArgs
    | McpArgs
    | GetMcpToolsArgs
    | FunctionArgs
    | dict[str, Any]
)
"""Typed arguments of a known tool kind; a plain dict for any other kind."""
