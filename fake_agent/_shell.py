"""The ``shell`` directive: the agent running a shell command, through the run's hooks
(docs/protocol.md §3.4, §6).

The fake runs nothing: the only command it knows is ``echo`` (checked when the scenario
loads), whose output it writes itself (its words joined by one space, then a newline).
A command a ``preToolUse`` hook changed into anything else is an ``error`` outcome.
"""

from __future__ import annotations

import shlex
import time
from typing import Any, Protocol

from ._files import complete, hooked_input, tool_events
from ._hooks import Hooks

#: The ``timeout`` of the call's args and of the hook's ``tool_input`` (ms).
TIMEOUT_MS = 30000


class ShellContext(Protocol):
    """What ``shell`` acts on (a subset of the run's context)."""

    workspace: str
    force: bool
    hooks: Hooks

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""


def _echo_words(command: str) -> list[str] | None:
    """The words after ``echo``, or None when the command is not a plain echo."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[1:] if words and words[0] == "echo" else None


def check_shell(spec: dict[str, Any]) -> str | None:
    """The command is an ``echo``."""
    if _echo_words(spec["command"]) is None:
        return f"directive 'shell' runs only echo, not {spec['command']!r}"
    return None


def run_shell(spec: dict[str, Any], ctx: ShellContext) -> None:
    """One shell call: preToolUse, beforeShellExecution, the ``--force`` rule, the echo,
    postToolUse (fake_agent/scenarios/README.md "Hooks")."""
    command = spec["command"]
    args = {"command": command, "workingDirectory": "", "timeout": TIMEOUT_MS}
    started, completed = tool_events("shellToolCall", args, spec)
    args.update(simpleCommands=["echo"], isBackground=False)
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
    words = _echo_words(command)
    if verdict.reason is not None:
        outcome: dict[str, Any] = {"rejected": {**refused, "reason": verdict.reason}}
    elif not ctx.force:
        # A headless run without --force: the real CLI rejects it (seen, §3.4, §8.4).
        outcome = {"rejected": {**refused, "reason": ""}}
    elif words is None:
        outcome = {"error": {"message": f"the fake runs only echo, not {command!r}"}}
    else:
        began = time.monotonic()
        stdout = " ".join(words) + "\n"
        success = {"command": command, "workingDirectory": "", "exitCode": 0, "signal": ""}
        success.update(stdout=stdout, stderr="", executionTime=1, localExecutionTimeMs=1)
        success["interleavedOutput"] = stdout
        outcome = {"success": success, "isBackground": False}
        output = {"output": stdout, "exitCode": 0}
        duration = (time.monotonic() - began) * 1000
        contexts = ctx.hooks.post_tool("Shell", tool_input, output, call_id, duration)
    complete(ctx, started, completed, outcome, contexts)
