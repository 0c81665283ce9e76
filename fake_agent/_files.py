"""The agent changing files: the ``write_file`` and ``delete_file`` directives.

Each acts in the run's workspace (``--workspace``, else the current directory) and
shows in the stream as the real CLI's ``writeToolCall`` / ``deleteToolCall`` would
(docs/protocol.md §3.4): a ``started`` event, the change, a ``completed`` event with the
outcome. As with the real CLI, a headless run without ``--force`` gets the call
``rejected`` and the file is left alone. Paths are relative to the workspace and may not
leave it: checked when the scenario loads (absolute or ``..``-escaping paths) and again
before acting (a symlink pointing out of the workspace makes an ``error`` outcome).

A change is **simulated** unless asked for (:class:`FileChanges`): the same events,
outcome and hooks, the disk untouched, so that a bundled scenario played from a reader's
own checkout (README.md's hooks block) leaves nothing behind. A scenario line with
``"real": true`` asks for it (``fix_tests``, whose point is the diff), and
``$FAKE_AGENT_FILES`` decides for every line of a run (``real`` or ``simulated``).
"""

from __future__ import annotations

import enum
import errno
import os
import posixpath
import re
import time
import uuid
from collections.abc import Mapping
from typing import Any, Protocol

from ._hooks import Hooks, Verdict

#: The ``model_call_id`` of the events when the directive gives none.
DEFAULT_MODEL_CALL_ID = "3f6a9c2e-8b1d-4e7a-9c5f-1a2b3c4d5e6f-0-fs1x"

_DRIVE = re.compile(r"^[A-Za-z]:")

#: Env var: whether every ``write_file`` and ``delete_file`` of a run changes the disk.
FILES_ENV = "FAKE_AGENT_FILES"


class FileChanges(enum.Enum):
    """What a file directive does to the disk once it may act."""

    #: The file is written or deleted.
    REAL = "real"
    #: Everything but: events, outcome and hooks as for a real change.
    SIMULATED = "simulated"


def files_setting(environ: Mapping[str, str]) -> FileChanges | None:
    """``$FAKE_AGENT_FILES``: what every file directive of the run does; None (unset or
    empty) lets each line say (``"real": true``, else simulated).

    Raises:
        ValueError: a value the fake does not know (the fake's own setup is wrong).
    """
    value = environ.get(FILES_ENV, "").strip()
    if not value:
        return None
    try:
        return FileChanges(value)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in FileChanges)
        raise ValueError(f"{FILES_ENV} must be one of {choices}, not {value!r}") from None


def _changes(spec: dict[str, Any]) -> FileChanges:
    """What this directive does: as the run says, else as its line says."""
    chosen = files_setting(os.environ)  # checked before the run printed anything
    if chosen is not None:
        return chosen
    return FileChanges.REAL if spec.get("real") is True else FileChanges.SIMULATED


def _fail(code: int, target: str) -> OSError:
    """The error a real change of ``target`` would have met, for a simulated one."""
    return OSError(code, os.strerror(code), target)


class FilesContext(Protocol):
    """What the file directives act on (a subset of the run's context)."""

    #: The run's workspace, absolute.
    workspace: str
    #: Whether tool calls are allowed (``-f``/``--force``/``--yolo``).
    force: bool
    #: The run's hooks (docs/protocol.md §6).
    hooks: Hooks

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""


def check_path(spec: dict[str, Any]) -> str | None:
    """``path`` is relative and stays inside the workspace."""
    path = spec["path"]
    name = spec["fake"]
    if os.path.isabs(path) or path.startswith(("/", "\\")) or _DRIVE.match(path):
        return f"directive {name!r} needs a relative 'path', not {path!r}"
    normal = posixpath.normpath(path.replace("\\", "/"))
    if normal in (".", "..") or normal.startswith("../"):
        return f"directive {name!r} has a 'path' outside the workspace: {path!r}"
    return None


def _target(workspace: str, path: str) -> str:
    return os.path.join(workspace, *posixpath.normpath(path.replace("\\", "/")).split("/"))


def _escapes(workspace: str, target: str) -> bool:
    """Whether ``target`` really lies outside ``workspace`` (symlinks followed)."""
    root = os.path.realpath(workspace)
    real = os.path.realpath(target)
    return os.path.commonpath([root, real]) != root


def tool_events(
    kind: str, args: dict[str, Any], spec: dict[str, Any], id_in_args: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``started`` event, and the ``completed`` one (``result`` still to be set);
    ``id_in_args``: the args repeat the call's id as ``toolCallId`` (not for MCP, §3.4)."""
    call_id = str(spec.get("call_id") or f"tool_{uuid.uuid4()}")
    if id_in_args:
        args["toolCallId"] = call_id
    now = int(time.time() * 1000)
    started = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": call_id,
        "tool_call": {
            kind: {"args": args},
            "toolCallId": call_id,
            "startedAtMs": str(now),
            "hookAdditionalContexts": [],
        },
        "model_call_id": str(spec.get("model_call_id", DEFAULT_MODEL_CALL_ID)),
        "session_id": "fake-files-session",
        "timestamp_ms": now,
    }
    completed = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": call_id,
        "tool_call": {kind: {"args": args, "result": {}}, "toolCallId": call_id},
        "session_id": "fake-files-session",
    }
    return started, completed


def complete(
    ctx: FilesContext,
    started: dict[str, Any],
    completed: dict[str, Any],
    outcome: Any,
    contexts: list[str] | None = None,
) -> None:
    """Emit ``completed`` with the call's outcome and times, and the ``additional_context``
    texts of its postToolUse hooks in ``hookAdditionalContexts`` (docs/protocol.md §3.4;
    the shape of an entry is unseen: a string here)."""
    tool_call = completed["tool_call"]
    kind = next(iter(tool_call))
    tool_call[kind]["result"] = outcome
    now = int(time.time() * 1000)
    tool_call["startedAtMs"] = started["tool_call"]["startedAtMs"]
    tool_call["completedAtMs"] = str(now)
    tool_call["hookAdditionalContexts"] = list(contexts or [])
    completed["timestamp_ms"] = now + 1
    ctx.emit(completed)


def hooked_input(verdict: Verdict, tool_input: dict[str, Any]) -> dict[str, Any]:
    """The input the tool runs with: a preToolUse hook's ``updated_input`` instead of the
    call's (a key a tool needs and the new input lacks keeps the call's value)."""
    return tool_input if verdict.updated_input is None else verdict.updated_input


def _refusal(ctx: FilesContext, target: str) -> dict[str, Any] | None:
    """The outcome of a call that may not act, or None."""
    if not ctx.force:
        # A headless run without --force: the real CLI rejects the call (§3.4).
        return {"rejected": {"path": "", "reason": ""}}
    if _escapes(ctx.workspace, target):
        return {"error": {"message": f"Path is outside the workspace: {target}"}}
    return None


def _lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _where(workspace: str, path: Any, default: str) -> str:
    """A hook's ``file_path``: absolute as given, relative to the workspace; not a string:
    ``default``."""
    if not isinstance(path, str) or not path:
        return default
    return path if os.path.isabs(path) else os.path.join(workspace, path)


def run_write_file(spec: dict[str, Any], ctx: FilesContext) -> None:
    """Write ``text`` to ``path`` (parents created, an existing file replaced; only
    played unless :func:`_changes` says real), through the run's preToolUse,
    postToolUse and afterFileEdit hooks."""
    path, text = spec["path"], spec["text"]
    started, completed = tool_events("writeToolCall", {"path": path, "fileText": text}, spec)
    ctx.emit(started)
    target = _target(ctx.workspace, path)
    asked = {"file_path": target, "content": text}
    verdict = ctx.hooks.pre_tool("Write", asked, started["call_id"])
    tool_input = hooked_input(verdict, asked)
    target = _where(ctx.workspace, tool_input.get("file_path"), target)
    content = tool_input.get("content")
    text = content if isinstance(content, str) else text
    contexts: list[str] = []
    if verdict.reason is not None:
        outcome: dict[str, Any] | None = {"rejected": {"path": target, "reason": verdict.reason}}
    else:
        outcome = _refusal(ctx, target)
    if outcome is None:
        data = text.encode("utf-8", errors="surrogatepass")
        began = time.monotonic()
        try:
            old = _old_text(target)  # a directory fails here, as writing it would
            if _changes(spec) is FileChanges.REAL:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as file:
                    file.write(data)
        except OSError as exc:
            outcome = {"error": {"message": f"{exc.strerror}: {target}"}}
        else:
            success = {"path": target, "linesCreated": _lines(text), "fileSize": len(data)}
            outcome = {"success": success}
            output = {"file_path": target, "success": True}
            duration = (time.monotonic() - began) * 1000
            contexts = ctx.hooks.post_tool(
                "Write", tool_input, output, started["call_id"], duration
            )
            ctx.hooks.after_file_edit(target, old, text)
    complete(ctx, started, completed, outcome, contexts)


def _old_text(target: str) -> str:
    """The file's text before a write (``""`` for a new file)."""
    try:
        with open(target, encoding="utf-8", errors="replace") as file:
            return file.read()
    except FileNotFoundError:
        return ""


def run_delete_file(spec: dict[str, Any], ctx: FilesContext) -> None:
    """Delete the file ``path`` (only played unless :func:`_changes` says real), through
    the run's preToolUse and postToolUse hooks; a missing one (or a directory) is an
    ``error`` outcome."""
    path = spec["path"]
    started, completed = tool_events("deleteToolCall", {"path": path}, spec)
    ctx.emit(started)
    target = _target(ctx.workspace, path)
    asked = {"file_path": target}
    verdict = ctx.hooks.pre_tool("Delete", asked, started["call_id"])
    tool_input = hooked_input(verdict, asked)
    target = _where(ctx.workspace, tool_input.get("file_path"), target)
    contexts: list[str] = []
    if verdict.reason is not None:
        # A refused delete shows no path (seen, docs/protocol.md §3.4).
        outcome: dict[str, Any] | None = {"rejected": {"path": "", "reason": verdict.reason}}
    else:
        outcome = _refusal(ctx, target)
    if outcome is None:
        began = time.monotonic()
        try:
            if _changes(spec) is FileChanges.REAL:
                os.remove(target)
            elif not os.path.lexists(target):
                raise _fail(errno.ENOENT, target)
            elif os.path.isdir(target) and not os.path.islink(target):
                raise _fail(errno.EISDIR, target)
        except OSError as exc:
            outcome = {"error": {"message": f"{exc.strerror}: {target}"}}
        else:
            outcome = {"success": {}}
            output = {"file_path": target, "success": True}
            duration = (time.monotonic() - began) * 1000
            contexts = ctx.hooks.post_tool(
                "Delete", tool_input, output, started["call_id"], duration
            )
    complete(ctx, started, completed, outcome, contexts)
