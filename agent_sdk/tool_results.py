"""Typed results of the agent's tool calls (docs/protocol.md §3.4): each kind's
``success`` payload, and the payloads of the outcomes that are not a success.

Split from :mod:`agent_sdk.tools`, which re-exports every name: import them from there.
Field names are the wire's in snake_case (``exitCode`` is ``exit_code``; msgspec maps
them, and encoding gives the wire's names back); every field has a default, because the CLI adds
and drops fields between versions. Fields this module does not know are ignored.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ._wire.hook_messages import hook_reason

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


def _wire_name(name: str) -> str:
    """The wire's camelCase spelling of a snake_case field name (``exit_code`` ->
    ``exitCode``). A leading underscore marks a field whose public face is a property
    (the wire's value needs a conversion first)."""
    head, *rest = name.lstrip("_").split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


class _Payload(msgspec.Struct, frozen=True, kw_only=True, rename=_wire_name):
    pass


# --- read ---------------------------------------------------------------------------
class ReadRange(_Payload, frozen=True):
    start_line: int | None = None
    end_line: int | None = None


class ReadSuccess(_Payload, frozen=True):
    """Result of a successful ``readToolCall``: the file's ``content`` and its size.

    ``related_cursor_rule_paths`` are the project rules that apply to the file;
    ``related_cursor_rules`` the rules themselves, kept as they came (only ever seen empty).
    """

    content: str = ""
    is_empty: bool = False
    exceeded_limit: bool = False
    total_lines: int | None = None
    total_chars: int | None = None
    file_size: int | None = None
    path: str | None = None
    read_range: ReadRange | None = None
    related_cursor_rule_paths: list[str] = msgspec.field(default_factory=list)
    related_cursor_rules: list[Any] = msgspec.field(default_factory=list)


# --- write / edit -------------------------------------------------------------------
class WriteSuccess(_Payload, frozen=True):
    path: str = ""
    lines_created: int | None = None
    file_size: int | None = None


class EditSuccess(_Payload, frozen=True):
    path: str = ""
    lines_added: int | None = None
    lines_removed: int | None = None
    diff_string: str | None = None
    before_full_file_content: str | None = None
    after_full_file_content: str | None = None
    message: str | None = None


class DeleteSuccess(_Payload, frozen=True):
    path: str | None = None


# --- shell --------------------------------------------------------------------------
class ShellSuccess(_Payload, frozen=True):
    """A finished command. A non-zero ``exit_code`` is still a success outcome.

    ``execution_time`` and ``local_execution_time_ms`` are in milliseconds. ``is_background``
    is not here: the CLI puts it beside the outcome (``ToolCallCompleted.result_extras``).
    """

    command: str = ""
    working_directory: str | None = None
    exit_code: int | None = None
    signal: str | None = None
    stdout: str = ""
    stderr: str = ""
    execution_time: int | None = None
    local_execution_time_ms: int | None = None
    interleaved_output: str | None = None


# --- search -------------------------------------------------------------------------
class GrepFiles(_Payload, frozen=True):
    """``files_with_matches`` output. The two ``…Truncated`` flags say the list was cut
    (by the CLI, or by ripgrep)."""

    files: list[str] = msgspec.field(default_factory=list)
    total_files: int | None = None
    client_truncated: bool | None = None
    ripgrep_truncated: bool | None = None


class GrepLineMatch(_Payload, frozen=True):
    """One line of ``content`` output: ``content_truncated`` when the CLI cut a long line,
    ``is_context_line`` for a context line around a match."""

    line_number: int | None = None
    content: str = ""
    content_truncated: bool | None = None
    is_context_line: bool | None = None


class GrepFileMatches(_Payload, frozen=True):
    file: str = ""
    matches: list[GrepLineMatch] = msgspec.field(default_factory=list)


class GrepContent(_Payload, frozen=True):
    matches: list[GrepFileMatches] = msgspec.field(default_factory=list)
    total_lines: int | None = None
    total_matched_lines: int | None = None
    client_truncated: bool | None = None
    ripgrep_truncated: bool | None = None


class GrepWorkspaceResult(_Payload, frozen=True):
    """One workspace root's matches: ``files`` or ``content``, by ``output_mode``."""

    files: GrepFiles | None = None
    content: GrepContent | None = None


class GrepSuccess(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    output_mode: str | None = None
    workspace_results: dict[str, GrepWorkspaceResult] = msgspec.field(default_factory=dict)


class GlobSuccess(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    files: list[str] = msgspec.field(default_factory=list)
    total_files: int | None = None
    client_truncated: bool | None = None
    ripgrep_truncated: bool | None = None


class LsSuccess(_Payload, frozen=True):
    """``directory_tree_root`` is the CLI's nested tree, kept as it came."""

    directory_tree_root: dict[str, Any] = msgspec.field(default_factory=dict)


# --- todos and plans ----------------------------------------------------------------
class Todo(_Payload, frozen=True):
    """``status`` is e.g. ``TODO_STATUS_PENDING``, ``..._IN_PROGRESS``, ``..._COMPLETED``."""

    id: str = ""
    content: str = ""
    status: str = ""


class PlanTodo(Todo, frozen=True):
    """A todo of a plan (``createPlanToolCall``): a :class:`Todo` with the ids of the
    todos it depends on, and when it was made and last changed (``created_at`` and
    ``updated_at``: milliseconds, as the CLI writes them, a string of digits)."""

    created_at: str | int | None = None
    updated_at: str | int | None = None
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
    is_error: bool = False


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
    """One step of a subagent's conversation: the child's ``assistant_message`` (the only
    kind of step reported; another kind decodes with ``assistant_message`` ``None``)."""

    assistant_message: TaskMessage | None = None


class TaskSuccess(_Payload, frozen=True):
    """A finished ``taskToolCall`` (a subagent, docs/protocol.md §3.4b).

    ``conversation_steps`` hold the child's final text (see :attr:`text`); ``agent_id`` is
    the child's real id (it can differ from the one in the call's arguments). For a child
    started in the background (``is_background``) the call ends at its launch, and
    ``duration_ms`` covers only that. The CLI has been reported writing ``durationMs`` as a
    string of digits: :attr:`duration_ms` is a number either way.
    """

    conversation_steps: list[TaskStep] = msgspec.field(default_factory=list)
    agent_id: str | None = None
    is_background: bool | None = None
    _duration_ms: str | int | None = None

    @property
    def text(self) -> str:
        """What the subagent answered: the text of its assistant messages, joined with no
        separator (as the CLI joins a reply's segments, docs/protocol.md §3.3)."""
        return "".join(
            step.assistant_message.text
            for step in self.conversation_steps
            if step.assistant_message is not None
        )

    @property
    def duration_ms(self) -> int | None:
        """The wire's ``durationMs`` as a number (``None`` if absent or not digits)."""
        value = self._duration_ms
        if isinstance(value, int):
            return value
        return int(value) if value is not None and value.isascii() and value.isdigit() else None


# --- outcomes other than success ----------------------------------------------------
class Rejection(_Payload, frozen=True):
    """A ``rejected`` outcome: blocked by a hook, the user or policy (not a failed run).
    A shell call's carries ``command`` and ``working_directory``, a delete's ``path``."""

    reason: str = ""
    command: str | None = None
    working_directory: str | None = None
    path: str | None = None
    is_readonly: bool | None = None

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
    working_directory: str | None = None
    is_readonly: bool | None = None


class WritePermissionDenied(_Payload, frozen=True):
    """A ``writePermissionDenied`` outcome: a write, edit or delete of ``path`` the
    permission rules do not allow. ``error`` says why."""

    error: str = ""
    path: str | None = None
    is_readonly: bool | None = None


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
