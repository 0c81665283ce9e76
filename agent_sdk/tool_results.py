"""Typed results of the agent's tool calls (docs/protocol.md §3.4): each kind's
``success`` payload, and the payloads of the outcomes that are not a success.

Split from :mod:`agent_sdk.tools`, which re-exports every name: import them from there.
Field names mirror the wire (camelCase); every field has a default, because the CLI adds
and drops fields between versions. Fields this module does not know are ignored.
"""

# Fields that mirror the wire keep the CLI's camelCase names (as in tools.py).
# ruff: noqa: N815

from __future__ import annotations

from typing import Any

import msgspec

from ._hooks import hook_reason

__all__ = [
    "CreatePlanSuccess",
    "DeleteSuccess",
    "EditSuccess",
    "GetMcpToolsSuccess",
    "GlobSuccess",
    "GrepContent",
    "GrepFileMatches",
    "GrepFiles",
    "GrepLineMatch",
    "GrepSuccess",
    "GrepWorkspaceResult",
    "LsSuccess",
    "McpContent",
    "McpSuccess",
    "McpText",
    "PermissionDenied",
    "PlanTodo",
    "ReadRange",
    "ReadSuccess",
    "Rejection",
    "ShellSuccess",
    "TaskMessage",
    "TaskStep",
    "TaskSuccess",
    "Todo",
    "ToolFailure",
    "ToolResult",
    "UpdateTodosSuccess",
    "WritePermissionDenied",
    "WriteSuccess",
]


class _Payload(msgspec.Struct, frozen=True, kw_only=True):
    pass


# --- read ---------------------------------------------------------------------------
class ReadRange(_Payload, frozen=True):
    startLine: int | None = None
    endLine: int | None = None


class ReadSuccess(_Payload, frozen=True):
    """Result of a successful ``readToolCall``: the file's ``content`` and its size.

    ``relatedCursorRulePaths`` are the project rules that apply to the file;
    ``relatedCursorRules`` the rules themselves, kept as they came (only ever seen empty).
    """

    content: str = ""
    isEmpty: bool = False
    exceededLimit: bool = False
    totalLines: int | None = None
    totalChars: int | None = None
    fileSize: int | None = None
    path: str | None = None
    readRange: ReadRange | None = None
    relatedCursorRulePaths: list[str] = msgspec.field(default_factory=list)
    relatedCursorRules: list[Any] = msgspec.field(default_factory=list)


# --- write / edit -------------------------------------------------------------------
class WriteSuccess(_Payload, frozen=True):
    path: str = ""
    linesCreated: int | None = None
    fileSize: int | None = None


class EditSuccess(_Payload, frozen=True):
    path: str = ""
    linesAdded: int | None = None
    linesRemoved: int | None = None
    diffString: str | None = None
    beforeFullFileContent: str | None = None
    afterFullFileContent: str | None = None
    message: str | None = None


class DeleteSuccess(_Payload, frozen=True):
    path: str | None = None


# --- shell --------------------------------------------------------------------------
class ShellSuccess(_Payload, frozen=True):
    """A finished command. A non-zero ``exitCode`` is still a success outcome.

    ``executionTime`` and ``localExecutionTimeMs`` are in milliseconds. ``isBackground``
    is not here: the CLI puts it beside the outcome (``ToolCallCompleted.result_extras``).
    """

    command: str = ""
    workingDirectory: str | None = None
    exitCode: int | None = None
    signal: str | None = None
    stdout: str = ""
    stderr: str = ""
    executionTime: int | None = None
    localExecutionTimeMs: int | None = None
    interleavedOutput: str | None = None


# --- search -------------------------------------------------------------------------
class GrepFiles(_Payload, frozen=True):
    """``files_with_matches`` output. The two ``…Truncated`` flags say the list was cut
    (by the CLI, or by ripgrep)."""

    files: list[str] = msgspec.field(default_factory=list)
    totalFiles: int | None = None
    clientTruncated: bool | None = None
    ripgrepTruncated: bool | None = None


class GrepLineMatch(_Payload, frozen=True):
    """One line of ``content`` output: ``contentTruncated`` when the CLI cut a long line,
    ``isContextLine`` for a context line around a match."""

    lineNumber: int | None = None
    content: str = ""
    contentTruncated: bool | None = None
    isContextLine: bool | None = None


class GrepFileMatches(_Payload, frozen=True):
    file: str = ""
    matches: list[GrepLineMatch] = msgspec.field(default_factory=list)


class GrepContent(_Payload, frozen=True):
    matches: list[GrepFileMatches] = msgspec.field(default_factory=list)
    totalLines: int | None = None
    totalMatchedLines: int | None = None
    clientTruncated: bool | None = None
    ripgrepTruncated: bool | None = None


class GrepWorkspaceResult(_Payload, frozen=True):
    """One workspace root's matches: ``files`` or ``content``, by ``outputMode``."""

    files: GrepFiles | None = None
    content: GrepContent | None = None


class GrepSuccess(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    outputMode: str | None = None
    workspaceResults: dict[str, GrepWorkspaceResult] = msgspec.field(default_factory=dict)


class GlobSuccess(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    files: list[str] = msgspec.field(default_factory=list)
    totalFiles: int | None = None
    clientTruncated: bool | None = None
    ripgrepTruncated: bool | None = None


class LsSuccess(_Payload, frozen=True):
    """``directoryTreeRoot`` is the CLI's nested tree, kept as it came."""

    directoryTreeRoot: dict[str, Any] = msgspec.field(default_factory=dict)


# --- todos and plans ----------------------------------------------------------------
class Todo(_Payload, frozen=True):
    """``status`` is e.g. ``TODO_STATUS_PENDING``, ``..._IN_PROGRESS``, ``..._COMPLETED``."""

    id: str = ""
    content: str = ""
    status: str = ""


class PlanTodo(Todo, frozen=True):
    """A todo of a plan (``createPlanToolCall``): a :class:`Todo` with the ids of the
    todos it depends on, and when it was made and last changed (``createdAt`` and
    ``updatedAt``: milliseconds, as the CLI writes them, a string of digits)."""

    createdAt: str | int | None = None
    updatedAt: str | int | None = None
    dependencies: list[str] = msgspec.field(default_factory=list)


class UpdateTodosSuccess(_Payload, frozen=True):
    todos: list[Todo] = msgspec.field(default_factory=list)


class CreatePlanSuccess(_Payload, frozen=True):
    """A ``createPlanToolCall`` success: empty. The plan is in the call's arguments, its
    ``planUri`` beside the outcome (see :attr:`agent_sdk.RunResult.plan`)."""


# --- MCP ----------------------------------------------------------------------------
class McpText(_Payload, frozen=True):
    text: str = ""


class McpContent(_Payload, frozen=True):
    text: McpText | None = None


class McpSuccess(_Payload, frozen=True):
    content: list[McpContent] = msgspec.field(default_factory=list)
    isError: bool = False


class GetMcpToolsSuccess(_Payload, frozen=True):
    """The MCP tools that matched: ``content`` is a string holding JSON, see
    :meth:`parsed_content`."""

    content: str = ""

    def parsed_content(self) -> Any:
        """``content`` decoded (raises ``msgspec.DecodeError`` if it is not JSON)."""
        return _decode_json(self.content)


def _decode_json(text: str) -> Any:
    """A JSON string a payload carries, decoded; ``msgspec.DecodeError`` if it is not
    JSON, also when it nests too deep to decode (never a ``RecursionError``:
    docs/protocol.md §5)."""
    try:
        return msgspec.json.decode(text)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested deeper than agent_sdk decodes") from None


# --- subagents ---------------------------------------------------------------------
class TaskMessage(_Payload, frozen=True):
    """A message of a subagent's conversation."""

    text: str = ""


class TaskStep(_Payload, frozen=True):
    """One step of a subagent's conversation: the child's ``assistantMessage`` (the only
    kind of step reported; another kind decodes with ``assistantMessage`` ``None``)."""

    assistantMessage: TaskMessage | None = None


class TaskSuccess(_Payload, frozen=True):
    """A finished ``taskToolCall`` (a subagent, docs/protocol.md §3.4b).

    ``conversationSteps`` hold the child's final text (see :attr:`text`); ``agentId`` is
    the child's real id (it can differ from the one in the call's arguments). For a child
    started in the background (``isBackground``) the call ends at its launch, and
    ``durationMs`` covers only that. The CLI has been reported writing ``durationMs`` as a
    string of digits: :attr:`duration_ms` is a number either way.
    """

    conversationSteps: list[TaskStep] = msgspec.field(default_factory=list)
    agentId: str | None = None
    isBackground: bool | None = None
    durationMs: str | int | None = None

    @property
    def text(self) -> str:
        """What the subagent answered: the text of its assistant messages, joined with no
        separator (as the CLI joins a reply's segments, docs/protocol.md §3.3)."""
        return "".join(
            step.assistantMessage.text
            for step in self.conversationSteps
            if step.assistantMessage is not None
        )

    @property
    def duration_ms(self) -> int | None:
        """``durationMs`` as a number (``None`` if absent or not digits)."""
        value = self.durationMs
        if isinstance(value, int):
            return value
        return int(value) if value is not None and value.isascii() and value.isdigit() else None


# --- outcomes other than success ----------------------------------------------------
class Rejection(_Payload, frozen=True):
    """A ``rejected`` outcome: blocked by a hook, the user or policy (not a failed run).
    A shell call's carries ``command`` and ``workingDirectory``, a delete's ``path``."""

    reason: str = ""
    command: str | None = None
    workingDirectory: str | None = None
    path: str | None = None
    isReadonly: bool | None = None

    @property
    def by_hook(self) -> bool:
        """Whether a hook blocked the call, as ``reason`` says (docs/protocol.md §6.4)."""
        return hook_reason(self.reason).by_hook

    @property
    def hook_message(self) -> str | None:
        """The blocking hook's own words, without the paragraphs the CLI adds to them;
        ``None`` when no hook blocked the call, or the CLI did not show its words."""
        return hook_reason(self.reason).message


class PermissionDenied(_Payload, frozen=True):
    """A ``permissionDenied`` outcome: a shell call the permission rules (the
    ``.cursor/cli.json`` configuration) do not allow. ``error`` says why."""

    error: str = ""
    command: str | None = None
    workingDirectory: str | None = None
    isReadonly: bool | None = None


class WritePermissionDenied(_Payload, frozen=True):
    """A ``writePermissionDenied`` outcome: a write, edit or delete of ``path`` the
    permission rules do not allow. ``error`` says why."""

    error: str = ""
    path: str | None = None
    isReadonly: bool | None = None


class ToolFailure(_Payload, frozen=True):
    """An ``error`` outcome."""

    message: str = ""


ToolResult = (
    ReadSuccess
    | WriteSuccess
    | EditSuccess
    | ShellSuccess
    | GrepSuccess
    | GlobSuccess
    | LsSuccess
    | DeleteSuccess
    | UpdateTodosSuccess
    | McpSuccess
    | GetMcpToolsSuccess
    | CreatePlanSuccess
    | TaskSuccess
    | Rejection
    | PermissionDenied
    | WritePermissionDenied
    | ToolFailure
    | dict[str, Any]
)
"""The payload of an outcome: the kind's success type, :class:`Rejection`,
:class:`PermissionDenied`, :class:`WritePermissionDenied`, :class:`ToolFailure`, or a
plain dict (unknown kind or unknown outcome)."""
