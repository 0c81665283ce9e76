"""What a hook is told: the JSON object the CLI writes on a hook's stdin, one class per
event agent_sdk answers (docs/extend.md "Hooks"; docs/protocol.md §6.3).

The wire's keys are snake_case already, so the attributes are the wire's names. Every key
is optional: the contract lists what the docs promise and what 2026.10.01 sent, and they
differ (no ``model_id`` was sent, ``composer_mode`` never). ``raw`` keeps the whole object
as it came, keys the SDK does not name included.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

__all__ = [
    "Edit",
    "FileEdited",
    "HookPayload",
    "SessionEnded",
    "SessionStarted",
    "ShellCommand",
    "ToolUse",
    "ToolUsed",
]


class HookPayload(msgspec.Struct, kw_only=True, frozen=True):
    """What every hook is told (§6.3): the session, the model, the CLI's version.

    ``session_id`` equals ``conversation_id`` and the stream's ``session_id`` (seen).
    """

    hook_event_name: str = ""
    session_id: str | None = None
    conversation_id: str | None = None
    generation_id: str | None = None
    model: str | None = None
    cursor_version: str | None = None
    workspace_roots: list[str] = []
    transcript_path: str | None = None
    raw: dict[str, Any] = {}
    """The whole object as the CLI wrote it."""


class ToolUse(HookPayload, frozen=True):
    """A tool call about to run (``preToolUse``): it can be allowed, denied or changed.

    ``tool_name`` is the CLI's (``Shell``, ``Read``, ``Write``, ``Grep``, ``Delete``,
    ``MCP:<tool>``...); ``tool_input`` its arguments as the CLI sent them (Shell
    ``{command, cwd, timeout}``, Read ``{file_path}``, Write ``{file_path, content}``: seen;
    a JSON string where the CLI sends one, as ``beforeMCPExecution`` is documented to).
    ``tool_use_id`` is not always the stream's ``call_id`` (seen: a shell call's was a bare
    uuid).
    """

    tool_name: str = ""
    tool_input: dict[str, Any] | str = {}
    tool_use_id: str | None = None
    cwd: str | None = None
    agent_message: str | None = None


class ShellCommand(HookPayload, frozen=True):
    """A shell command about to run (``beforeShellExecution``)."""

    command: str = ""
    cwd: str | None = None
    sandbox: bool | None = None


class ToolUsed(HookPayload, frozen=True):
    """A tool call that ran (``postToolUse``). ``tool_output`` is a JSON *string* (seen:
    ``{"file_path":…,"success":true}`` for Write); ``duration`` in milliseconds."""

    tool_name: str = ""
    tool_input: dict[str, Any] | str = {}
    tool_output: str | None = None
    tool_use_id: str | None = None
    cwd: str | None = None
    duration: float | None = None


class Edit(msgspec.Struct, frozen=True):
    """One change of an edit: the text replaced and its replacement."""

    old_string: str = ""
    new_string: str = ""


class FileEdited(HookPayload, frozen=True):
    """A file the agent edited (``afterFileEdit``)."""

    file_path: str = ""
    edits: list[Edit] = []


class SessionStarted(HookPayload, frozen=True):
    """The run started (``sessionStart``)."""

    is_background_agent: bool | None = None


class SessionEnded(HookPayload, frozen=True):
    """The run ended (``sessionEnd``). ``reason``: ``completed``, ``aborted``, ``error``...;
    ``final_status`` was seen, its values are not documented."""

    reason: str | None = None
    duration_ms: float | None = None
    final_status: str | None = None
    error_message: str | None = None
    is_background_agent: bool | None = None


class HookReply(NamedTuple):
    """What the hook process prints on stdout and stderr, and its exit code (§6.4)."""

    exit_code: int
    stdout: bytes
    stderr: bytes = b""
