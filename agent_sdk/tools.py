"""Typed arguments and results of the agent's tool calls (docs/protocol.md §3.4).

Field names mirror the wire (camelCase, as the CLI spells them). Every field but the
essential ones has a default, because the CLI adds and drops fields between versions.
A tool kind this module does not know keeps its arguments and result as plain dicts.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = [
    "ApplyPatch",
    "DeleteArgs",
    "DeleteSuccess",
    "EditArgs",
    "EditSuccess",
    "FunctionArgs",
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
    "ReadArgs",
    "ReadRange",
    "ReadSuccess",
    "Rejection",
    "ShellArgs",
    "ShellSuccess",
    "StrReplace",
    "Todo",
    "ToolArgs",
    "ToolFailure",
    "ToolResult",
    "UpdateTodosArgs",
    "UpdateTodosSuccess",
    "WriteArgs",
    "WriteSuccess",
]


class _Payload(msgspec.Struct, frozen=True, kw_only=True):
    pass


# --- read ---------------------------------------------------------------------------
class ReadArgs(_Payload, frozen=True):
    """Arguments of ``readToolCall``."""

    path: str = ""
    offset: int | None = None
    limit: int | None = None


class ReadRange(_Payload, frozen=True):
    startLine: int | None = None
    endLine: int | None = None


class ReadSuccess(_Payload, frozen=True):
    """Result of a successful ``readToolCall``: the file's ``content`` and its size."""

    content: str = ""
    isEmpty: bool = False
    exceededLimit: bool = False
    totalLines: int | None = None
    totalChars: int | None = None
    fileSize: int | None = None
    path: str | None = None
    readRange: ReadRange | None = None


# --- write / edit -------------------------------------------------------------------
class WriteArgs(_Payload, frozen=True):
    """Arguments of ``writeToolCall``."""

    path: str = ""
    fileText: str | None = None
    toolCallId: str | None = None


class WriteSuccess(_Payload, frozen=True):
    path: str = ""
    linesCreated: int | None = None
    fileSize: int | None = None


class StrReplace(_Payload, frozen=True):
    oldText: str = ""
    newText: str = ""
    replaceAll: bool = False


class MultiStrReplace(_Payload, frozen=True):
    edits: list[StrReplace] = msgspec.field(default_factory=list)


class ApplyPatch(_Payload, frozen=True):
    patchContent: str = ""


class EditArgs(_Payload, frozen=True):
    """Arguments of ``editToolCall``: one of a whole new file, replacements or a patch."""

    path: str = ""
    streamContent: str | None = None
    strReplace: StrReplace | None = None
    multiStrReplace: MultiStrReplace | None = None
    applyPatch: ApplyPatch | None = None


class EditSuccess(_Payload, frozen=True):
    path: str = ""
    linesAdded: int | None = None
    linesRemoved: int | None = None
    diffString: str | None = None
    beforeFullFileContent: str | None = None
    afterFullFileContent: str | None = None
    message: str | None = None


# --- shell --------------------------------------------------------------------------
class ShellArgs(_Payload, frozen=True):
    """Arguments of ``shellToolCall``. ``timeout`` is in milliseconds."""

    command: str = ""
    workingDirectory: str | None = None
    timeout: int | None = None
    toolCallId: str | None = None
    simpleCommands: list[str] | None = None
    isBackground: bool | None = None
    parsingResult: dict[str, Any] | None = None


class ShellSuccess(_Payload, frozen=True):
    """A finished command. A non-zero ``exitCode`` is still a success outcome."""

    command: str = ""
    workingDirectory: str | None = None
    exitCode: int | None = None
    signal: str | None = None
    stdout: str = ""
    stderr: str = ""
    executionTime: int | None = None
    interleavedOutput: str | None = None


# --- search -------------------------------------------------------------------------
class GrepArgs(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    outputMode: str | None = None
    caseInsensitive: bool | None = None
    multiline: bool | None = None


class GrepFiles(_Payload, frozen=True):
    files: list[str] = msgspec.field(default_factory=list)
    totalFiles: int | None = None


class GrepLineMatch(_Payload, frozen=True):
    lineNumber: int | None = None
    content: str = ""


class GrepFileMatches(_Payload, frozen=True):
    file: str = ""
    matches: list[GrepLineMatch] = msgspec.field(default_factory=list)


class GrepContent(_Payload, frozen=True):
    matches: list[GrepFileMatches] = msgspec.field(default_factory=list)
    totalLines: int | None = None
    totalMatchedLines: int | None = None


class GrepWorkspaceResult(_Payload, frozen=True):
    """One workspace root's matches: ``files`` or ``content``, by ``outputMode``."""

    files: GrepFiles | None = None
    content: GrepContent | None = None


class GrepSuccess(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    outputMode: str | None = None
    workspaceResults: dict[str, GrepWorkspaceResult] = msgspec.field(default_factory=dict)


class GlobArgs(_Payload, frozen=True):
    globPattern: str = ""
    targetDirectory: str | None = None


class GlobSuccess(_Payload, frozen=True):
    pattern: str = ""
    path: str | None = None
    files: list[str] = msgspec.field(default_factory=list)
    totalFiles: int | None = None
    clientTruncated: bool | None = None
    ripgrepTruncated: bool | None = None


class LsArgs(_Payload, frozen=True):
    path: str = ""
    ignore: list[str] = msgspec.field(default_factory=list)


class LsSuccess(_Payload, frozen=True):
    """``directoryTreeRoot`` is the CLI's nested tree, kept as it came."""

    directoryTreeRoot: dict[str, Any] = msgspec.field(default_factory=dict)


class DeleteArgs(_Payload, frozen=True):
    path: str = ""


class DeleteSuccess(_Payload, frozen=True):
    path: str | None = None


# --- todos, MCP, functions ----------------------------------------------------------
class Todo(_Payload, frozen=True):
    """``status`` is e.g. ``TODO_STATUS_PENDING``, ``..._IN_PROGRESS``, ``..._COMPLETED``."""

    id: str = ""
    content: str = ""
    status: str = ""


class UpdateTodosArgs(_Payload, frozen=True):
    todos: list[Todo] = msgspec.field(default_factory=list)
    merge: bool | None = None


class UpdateTodosSuccess(_Payload, frozen=True):
    todos: list[Todo] = msgspec.field(default_factory=list)


class McpArgs(_Payload, frozen=True):
    name: str = ""
    args: dict[str, Any] = msgspec.field(default_factory=dict)
    toolName: str | None = None
    providerIdentifier: str | None = None


class McpText(_Payload, frozen=True):
    text: str = ""


class McpContent(_Payload, frozen=True):
    text: McpText | None = None


class McpSuccess(_Payload, frozen=True):
    content: list[McpContent] = msgspec.field(default_factory=list)
    isError: bool = False


class FunctionArgs(_Payload, frozen=True):
    """A ``function`` call: ``arguments`` is a JSON string, see :meth:`parsed_arguments`."""

    name: str = ""
    arguments: str = ""

    def parsed_arguments(self) -> Any:
        """The ``arguments`` JSON string decoded (raises ``msgspec.DecodeError`` if invalid)."""
        return msgspec.json.decode(self.arguments)


# --- outcomes -----------------------------------------------------------------------
class Rejection(_Payload, frozen=True):
    """A ``rejected`` outcome: blocked by permissions or policy (not a failed run)."""

    reason: str = ""
    command: str | None = None
    workingDirectory: str | None = None
    path: str | None = None
    isReadonly: bool | None = None


class ToolFailure(_Payload, frozen=True):
    """An ``error`` outcome."""

    message: str = ""


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
    | McpArgs
    | FunctionArgs
    | dict[str, Any]
)
"""Typed arguments of a known tool kind; a plain dict for any other kind."""

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
    | Rejection
    | ToolFailure
    | dict[str, Any]
)
"""The payload of an outcome: the kind's success type, :class:`Rejection`,
:class:`ToolFailure`, or a plain dict (unknown kind or unknown outcome)."""
