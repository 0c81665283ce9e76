"""The ``shell`` directive: the agent running a shell command, for real, through the run's
hooks (docs/protocol.md §3.4, §6), and the helpers the CLI leaves behind: the
``worker_server`` and ``daemon`` directives (§5). How the processes are started:
:mod:`._processes`.

A foreground command is waited for however long it runs (the call's ``timeout`` is not
enforced: what the real CLI does then is only inferred, §3.4); a background one
(``"background": true``, the real ``isBackground``) completes the call at once and runs on.
"""

from __future__ import annotations

import shlex
import time
from typing import Any, Protocol

from ._files import complete, hooked_input, tool_events
from ._hooks import Hooks
from ._processes import (
    Role,
    command_environment,
    start_command,
    start_daemon,
    start_worker_server,
)

#: The ``timeout`` of the call's args and of the hook's ``tool_input`` (ms).
TIMEOUT_MS = 30000

#: Shell words that end one simple command and start the next.
_OPERATORS = frozenset({";", "&", "&&", "|", "||", "(", ")", ";;", "|&"})


class ShellContext(Protocol):
    """What ``shell`` acts on (a subset of the run's context)."""

    workspace: str
    force: bool
    hooks: Hooks
    #: The run's session id: the command's ``CURSOR_CONVERSATION_ID``.
    session_id: str

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""


def simple_commands(command: str) -> list[str]:
    """The first word of each simple command (the args' ``simpleCommands``, roughly as
    the real CLI parses them); ``[]`` for what ``shlex`` cannot split."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    names: list[str] = []
    starts = True
    try:
        for word in lexer:
            if word in _OPERATORS:
                starts = True
            elif starts:
                names.append(word)
                starts = False
    except ValueError:
        return []
    return names


def _run(command: str, spec: dict[str, Any], ctx: ShellContext) -> dict[str, Any]:
    """Run the command (waiting for it unless it goes to the background): the success."""
    background = bool(spec.get("background", False))
    role = Role.BACKGROUND if background else Role.SHELL
    env = command_environment(ctx.session_id)
    began = time.monotonic()
    started = start_command(command, ctx.workspace, env, spec.get("pty", True), role)
    if background:
        started.release()
        exit_code, signal, stdout, stderr, interleaved = 0, "", "", "", ""
    else:
        finished = started.wait()
        assert finished is not None  # nothing stops the wait
        exit_code, signal, stdout, stderr, interleaved = finished
    took = max(1, round((time.monotonic() - began) * 1000))
    success = {"command": command, "workingDirectory": "", "exitCode": exit_code}
    success.update(signal=signal, stdout=stdout, stderr=stderr)
    success.update(executionTime=took, localExecutionTimeMs=took, interleavedOutput=interleaved)
    return success


def run_shell(spec: dict[str, Any], ctx: ShellContext) -> None:
    """One shell call: preToolUse, beforeShellExecution, the ``--force`` rule, the command,
    postToolUse (fake_agent/scenarios/README.md "Hooks")."""
    command = spec["command"]
    background = bool(spec.get("background", False))
    args = {"command": command, "workingDirectory": "", "timeout": TIMEOUT_MS}
    started, completed = tool_events("shellToolCall", args, spec)
    args.update(simpleCommands=simple_commands(command), isBackground=background)
    ctx.emit(started)
    call_id = started["call_id"]
    asked = {"command": command, "cwd": ctx.workspace, "timeout": TIMEOUT_MS}
    verdict = ctx.hooks.pre_tool("Shell", asked, call_id)
    tool_input = hooked_input(verdict, asked)
    new_command = tool_input.get("command")
    command = new_command if isinstance(new_command, str) else command
    if verdict.reason is None:
        verdict = ctx.hooks.before_shell(command)
    refused = {"command": command, "workingDirectory": ctx.workspace, "isReadonly": False}
    contexts: list[str] = []
    if verdict.reason is not None:
        outcome: dict[str, Any] = {"rejected": {**refused, "reason": verdict.reason}}
    elif not ctx.force:
        # A headless run without --force: the real CLI rejects it (seen, §3.4, §8.4).
        outcome = {"rejected": {**refused, "reason": ""}}
    else:
        began = time.monotonic()
        success = _run(command, spec, ctx)
        outcome = {"success": success, "isBackground": background}
        output = {"output": success["stdout"], "exitCode": success["exitCode"]}
        duration = (time.monotonic() - began) * 1000
        contexts = ctx.hooks.post_tool("Shell", tool_input, output, call_id, duration)
    complete(ctx, started, completed, outcome, contexts)


def run_worker_server(spec: dict[str, Any], ctx: object) -> None:
    """Leave a helper sleeping in the fake's process group (the real ``worker-server``)."""
    start_worker_server()


def run_daemon(spec: dict[str, Any], ctx: object) -> None:
    """Leave a helper outside the process tree (double fork, ``setsid``)."""
    start_daemon(bool(spec.get("scrub_env", False)))
