"""The ``subagent`` directive: a Task tool call and, for a client that asked for them, its
subagent session (docs/acp.md §3.10, §3.13, §4; scenarios/acp/README.md).

The parent shows a ``Task: <description>`` tool call (kind ``other``). With
``clientCapabilities._meta.subagents`` the child then streams as a session of its own: a
``subagent_spawned`` on the parent, the child's steps with ``params.sessionId`` set to the
child's id, then ``subagent_state_update`` on the parent. A background child runs on a
thread of its own while the parent goes on; the prompt is answered only once every
background child has ended and the directive's ``after`` steps (the follow-up turn) have
played. A cancel ends every running child ``cancelled`` before the prompt's
``cancelled``. Without the capability nothing of the child is streamed. Either way the
completed Task call is followed by ``cursor/task``, a request with an id, not awaited.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._turn import Turn

Step = dict[str, Any]

#: ``subagentType`` of the built-in agent as seen in ``cursor/task`` (§4).
BUILTIN_TYPE: dict[str, Any] = {"custom": {"unspecified": {}}}
#: The model a child runs on unless its step says.
CHILD_MODEL = "gpt-5.4-mini-medium"


class Children:
    """The subagents of one turn: which are running, and the background threads."""

    def __init__(self) -> None:
        self.running: list[str] = []
        self.threads: list[threading.Thread] = []
        self.count = 0


def play(turn: Turn, step: Step) -> None:
    """Play one ``subagent`` directive in ``turn``."""
    began = time.monotonic()  # its durationMs: the time it took, unless the step pins one
    children = turn.children
    children.count += 1
    child = str(step.get("id") or uuid.uuid4())
    call_id = str(step.get("toolCallId") or f"call-task-{children.count}")
    description, prompt = str(step["description"]), str(step.get("prompt", step["description"]))
    kind = step.get("subagentType", BUILTIN_TYPE)
    model = str(step.get("model", CHILD_MODEL))
    background = bool(step.get("background", False))
    raw_input = {"_toolName": "task", "prompt": prompt, "description": description}
    turn.update(
        {
            "sessionUpdate": "tool_call",
            "toolCallId": call_id,
            "title": f"Task: {description}",
            "kind": "other",
            "status": "pending",
            "rawInput": {**raw_input, "subagentType": kind},
        }
    )
    if turn.subagents:
        meta = {"cursor": {"toolCallId": call_id, "agentId": child, "model": model}}
        spawned = {
            "sessionUpdate": "subagent_spawned",
            "subagentSessionId": child,
            "name": str(step.get("name", "generalPurpose")),
            "task": prompt,
            "capabilities": {},
            "_meta": meta,
        }
        turn.update(spawned)
        with turn.rpc.lock:
            children.running.append(child)
        if background:
            thread = threading.Thread(
                target=_run_child, args=(turn, step, child), name="acp-subagent", daemon=True
            )
            children.threads.append(thread)
            thread.start()
        else:
            _run_child(turn, step, child)
            turn.check()
    # Foreground: the child's whole run; background: until the call returned, as the
    # real call completes then (docs/acp.md §3.10).
    duration = step.get("durationMs", int((time.monotonic() - began) * 1000))
    output = {"durationMs": duration, "isBackground": background}
    turn.update(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": call_id,
            "status": "completed",
            "rawOutput": output,
        }
    )
    task = {**raw_input, "subagentType": kind, "model": model, "durationMs": duration}
    turn.send_request("cursor/task", {"toolCallId": call_id, **task, "agentId": f"agent-{call_id}"})
    if background and turn.subagents:
        turn.after.extend(step.get("after", []))


def _run_child(turn: Turn, step: Step, child: str) -> None:
    """The child's steps on its own session, then its end on the parent's."""
    from ._turn import TurnEndedError

    try:
        turn.play(list(step.get("steps", [])), child)
    except TurnEndedError:
        return  # cancelled: the cancel sent its end
    end(turn, child, str(step.get("state", "completed")))


def end(turn: Turn, child: str, state: str) -> None:
    """``subagent_state_update`` for ``child`` on the parent, once (§3.13: the line seen
    names no subagent, only its ``state``)."""
    with turn.rpc.lock:
        if child not in turn.children.running:
            return
        turn.children.running.remove(child)
        update = {"sessionUpdate": "subagent_state_update", "state": state}
        turn.rpc.notify("session/update", {"sessionId": turn.session.session_id, "update": update})


def wait_for_background(turn: Turn) -> None:
    """Hold the prompt until every background child has ended (§3.6, §3.13)."""
    for thread in turn.children.threads:
        while thread.is_alive():
            thread.join(0.02)
            turn.check()


def cancel_running(turn: Turn) -> None:
    """A cancel ends every running child ``cancelled``, before the prompt's answer."""
    for child in list(turn.children.running):
        end(turn, child, "cancelled")
