"""Shell commands and the helpers the CLI leaves, in ACP mode (docs/acp.md §2 step 7,
§3.10, §5.2 item 11): the ``shell``, ``worker_server`` and ``daemon`` steps.

A ``shell`` step is an ``execute`` tool call whose command really runs, as in print mode
(fake_agent/_processes.py: ``/bin/sh -c`` in the session's cwd, a session of its own, by
default on a pty): ``tool_call`` (pending, ``rawInput {command}``), ``in_progress``, the
command, then ``completed`` with ``rawOutput {exitCode, stdout, stderr}``. It asks no
permission (an allowlisted command, as in the ``tools`` scenario). A cancel ends the turn
at once and leaves the command running, as a real command is left (the fake kills none).
"""

from __future__ import annotations

import threading
import uuid
from typing import Any, Protocol

from .._processes import (
    Role,
    command_environment,
    start_command,
    start_daemon,
    start_worker_server,
)

Step = dict[str, Any]


def check_shell(step: Step) -> str | None:
    """``command``: a string; ``toolCallId``: a string; ``background``, ``pty``: booleans."""
    if not isinstance(step.get("command"), str):
        return "'shell' needs a string 'command'"
    if not isinstance(step.get("toolCallId", ""), str):
        return "'toolCallId' must be a string"
    for key in ("background", "pty"):
        if not isinstance(step.get(key, True), bool):
            return f"'{key}' must be a boolean"
    return None


def check_daemon(step: Step) -> str | None:
    """``scrub_env``: a boolean."""
    return (
        None if isinstance(step.get("scrub_env", False), bool) else "'scrub_env' must be a boolean"
    )


def check_nothing(step: Step) -> str | None:
    """A step without fields."""
    return None


class ShellTurn(Protocol):
    """What the steps need of the turn (``_turn.Turn``)."""

    cancelled: threading.Event

    @property
    def finished(self) -> bool:
        """Whether the prompt was answered."""

    def update(self, update: dict[str, Any], where: str | None = None) -> None:
        """Send one ``session/update``."""

    def check(self) -> None:
        """Raise ``TurnEndedError`` if the turn is over."""


def play_shell(
    turn: ShellTurn, step: Step, cwd: str, conversation_id: str, where: str | None
) -> None:
    """One shell command of the turn (scenarios/acp/README.md, ``shell``)."""
    command = str(step["command"])
    call_id = str(step.get("toolCallId") or f"call-{uuid.uuid4()}-0\nfc_{uuid.uuid4()}_0")
    announced = {
        "sessionUpdate": "tool_call",
        "toolCallId": call_id,
        "title": f"`{command}`",
        "kind": "execute",
        "status": "pending",
        "rawInput": {"command": command},
    }
    turn.update(announced, where)
    update = {"sessionUpdate": "tool_call_update", "toolCallId": call_id}
    turn.update({**update, "status": "in_progress"}, where)
    background = bool(step.get("background", False))
    role = Role.BACKGROUND if background else Role.SHELL
    env = command_environment(conversation_id)
    started = start_command(command, cwd, env, bool(step.get("pty", True)), role)
    output = {"exitCode": 0, "stdout": "", "stderr": ""}
    if background:
        started.release()
    else:
        finished = started.wait(lambda: turn.cancelled.is_set() or turn.finished)
        if finished is None:
            started.release()  # the turn is over; the command runs on
            turn.check()
            return
        output = {"exitCode": finished.exit_code, "stdout": finished.stdout}
        output["stderr"] = finished.stderr
    turn.update({**update, "status": "completed", "rawOutput": output}, where)


def play_worker_server(step: Step) -> None:
    """Leave a helper sleeping in the fake's process group (the real ``worker-server``)."""
    start_worker_server()


def play_daemon(step: Step) -> None:
    """Leave a helper outside the process tree (double fork, ``setsid``)."""
    start_daemon(bool(step.get("scrub_env", False)))
