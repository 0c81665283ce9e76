"""One ``session/prompt`` turn: plays an ACP scenario's steps (scenarios/acp/README.md).

The turn runs on its own thread so the server keeps reading: a ``session/cancel`` (or a
second prompt on the session) ends it at once with ``{"stopReason":"cancelled"}``
(docs/acp.md §2 item 5-6, §3.7); after that nothing more of the turn is sent.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from .._wire import encode_line, write_stderr, write_stdout
from . import _mcp, _shell, _subagent
from ._rpc import RpcError, Transport
from ._scenarios import Step
from ._state import Session

#: The options of every permission request, in order (docs/acp.md §3.11).
PERMISSION_OPTIONS: list[dict[str, str]] = [
    {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "allow-always", "name": "Allow always", "kind": "allow_always"},
    {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"},
]
#: Only these run the tool; any other answer is a rejection (§3.11).
ALLOW_IDS = frozenset({"allow-once", "allow-always"})

#: How many lines of a flood go in one write (a client reads a full pipe).
_FLOOD_BATCH = 1000
#: How long a flood lasts unless its step says (or a cancel ends the turn).
_FLOOD_SECONDS = 10.0

#: How often a wait for the client looks whether the turn was cancelled meanwhile.
_POLL = 0.02


class TurnEndedError(Exception):
    """The turn is over (cancelled, or a stop/error step answered the prompt)."""


class Turn:
    """A prompt being answered: sends its updates and requests, then the response."""

    def __init__(
        self,
        rpc: Transport,
        session: Session,
        request_id: Any,
        steps: list[Step],
        force: bool,
        saver: Callable[[Session], None] | None = None,
        subagents: bool = False,
    ) -> None:
        self.rpc = rpc
        self.session = session
        self.request_id = request_id
        self.steps = steps
        self.force = force
        self.saver = saver
        self.cancelled = threading.Event()
        #: Whether the client asked for subagent sessions (docs/acp.md §3.13).
        self.subagents = subagents
        self.children = _subagent.Children()
        #: The follow-up steps played once the background subagents have ended.
        self.after: list[Step] = []
        self._finished = False
        #: The updates this turn sent, recorded into the session's history.
        self.record: list[dict[str, Any]] = []
        session.turns.append(self.record)

    # ------------------------------------------------------------------ ending

    def finish(self, stop_reason: str | None = None, error: RpcError | None = None) -> bool:
        """Answer the prompt once (a stop reason or an error); False if already answered."""
        with self.rpc.lock:
            if self._finished:
                return False
            self._finished = True
            if error is not None:
                self.rpc.fail(self.request_id, error)
            else:
                self.rpc.respond(self.request_id, {"stopReason": stop_reason})
        return True

    def cancel(self) -> None:
        """End the turn as ``cancelled`` now; the playing thread stops at its next step."""
        self.cancelled.set()
        _subagent.cancel_running(self)  # its subagents end first (§3.13)
        self.finish("cancelled")

    @property
    def finished(self) -> bool:
        return self._finished

    # ------------------------------------------------------------------ playing

    def run(self) -> None:
        """Play the steps; end ``end_turn`` unless a step ended the turn otherwise."""
        try:
            self.play(self.steps)
            _subagent.wait_for_background(self)
            self.play(self.after)
            self.finish("end_turn")
        except TurnEndedError:
            pass
        if self.saver is not None:
            self.saver(self.session)

    def start(self) -> None:
        threading.Thread(target=self.run, name="acp-turn", daemon=True).start()

    def check(self) -> None:
        if self.cancelled.is_set() or self._finished:
            raise TurnEndedError

    def update(self, update: dict[str, Any], where: str | None = None) -> None:
        """Send one ``session/update`` of this session, or of its subagent session
        ``where`` (not recorded: a load replays only the parent's, §3.13), unless the
        turn has ended."""
        with self.rpc.lock:
            self.check()
            if where is None:
                self.record.append(update)
            if where is None and update.get("sessionUpdate") == "session_info_update":
                title = update.get("title", 0)  # 0: no title in it
                if title is None or isinstance(title, str):
                    self.session.title = title  # null clears it (v1 schema, §3.9)
            session_id = where or self.session.session_id
            self.rpc.notify("session/update", {"sessionId": session_id, "update": update})

    def send_request(self, method: str, params: dict[str, Any]) -> None:
        """An agent→client request with an id, not awaited: its answer is dropped (§4)."""
        with self.rpc.lock:
            self.check()
            self.rpc.request(method, params, awaited=False)

    def _wait(self, seconds: float | None) -> None:
        """Sleep ``seconds`` (None: forever) unless cancelled first."""
        if self.cancelled.wait(seconds):
            raise TurnEndedError
        self.check()

    def _ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request to the client and wait for its answer (until cancelled)."""
        with self.rpc.lock:
            self.check()
            slot = self.rpc.request(method, params)
        while not slot.done.wait(_POLL):
            self.check()
        self.check()
        return slot.answer

    def play(self, steps: list[Step], where: str | None = None) -> None:
        """Play ``steps`` on this session, or on the subagent session ``where``."""
        for step in steps:
            self.check()
            name = step.get("fake")
            if name is None:
                self.update(step, where)
            elif name == "subagent":
                _subagent.play(self, step)
            elif name == "sleep":
                self._wait(float(step["seconds"]))
            elif name == "stall":
                seconds = step.get("seconds")
                self._wait(None if seconds is None else float(seconds))
            elif name == "permission":
                self.play(self._permission(step, where), where)
            elif name == "mcp_call":
                _mcp.play_mcp_call(self, step, self.session.mcp, where)
            elif name == "shell":
                conversation = where or self.session.session_id
                _shell.play_shell(self, step, self.session.cwd, conversation, where)
            elif name == "worker_server":
                _shell.play_worker_server(step)
            elif name == "daemon":
                _shell.play_daemon(step)
            elif name == "request":
                self.play(self._request(step))
            elif name == "stop":
                self.finish(str(step["stopReason"]))
                raise TurnEndedError
            elif name == "error":
                self.finish(error=RpcError(step["code"], step.get("data"), step["message"]))
                raise TurnEndedError
            elif name == "stderr":
                write_stderr(str(step["text"]) + "\n")
            elif name == "flood":
                self._flood(step)
            elif name == "raw":
                with self.rpc.lock:
                    write_stdout(str(step["text"]) + "\n")
            elif name == "exit":
                # A process that dies mid-turn loses the turn (docs/acp.md §5.2 item 9).
                os._exit(int(step.get("code", 0)))

    def _flood(self, step: Step) -> None:
        """``update`` again and again, a batch of lines per write, as fast as the pipe takes
        them, until a cancel ends the turn or ``seconds`` pass (not recorded in history)."""
        params = {"sessionId": self.session.session_id, "update": step["update"]}
        block = encode_line({"jsonrpc": "2.0", "method": "session/update", "params": params})
        block *= _FLOOD_BATCH
        deadline = time.monotonic() + float(step.get("seconds", _FLOOD_SECONDS))
        while time.monotonic() < deadline:
            with self.rpc.lock:  # released between writes: a cancel gets its turn
                self.check()
                write_stdout(block)

    def _permission(self, step: Step, where: str | None = None) -> list[Step]:
        """``session/request_permission`` and the branch its answer picks (§3.11)."""
        branches: dict[str, list[Step]] = step.get("on", {})
        if self.force:
            # --force at spawn auto-approves: no request at all (docs/acp.md §1).
            return list(step.get("allow", []))
        chosen = self._choose(step["toolCall"], step.get("options", PERMISSION_OPTIONS), where)
        if isinstance(chosen, str) and chosen in branches:
            return list(branches[chosen])
        return list(step.get("allow" if chosen in ALLOW_IDS else "reject", []))

    def _choose(self, tool_call: dict[str, Any], options: Any, where: str | None) -> Any:
        """``session/request_permission``: the optionId the client selected, or None."""
        params = {
            "sessionId": where or self.session.session_id,
            "toolCall": {"status": "pending", **tool_call},
            "options": options,
        }
        answer = self._ask("session/request_permission", params)
        outcome = answer.get("result", {}).get("outcome") if "result" in answer else None
        if isinstance(outcome, dict) and outcome.get("outcome") == "selected":
            return outcome.get("optionId")
        return None

    def ask_permission(self, tool_call: dict[str, Any], where: str | None) -> bool:
        """Ask for ``tool_call`` with the three usual options: whether an allow id came
        back (§3.11)."""
        return self._choose(tool_call, PERMISSION_OPTIONS, where) in ALLOW_IDS

    def _request(self, step: Step) -> list[Step]:
        """An extension request (``cursor/*``): the branch named by the answer's nested
        ``outcome.outcome``; ``error`` for an error answer; a flat or missing outcome
        counts as ``cancelled`` (docs/acp.md §4)."""
        branches: dict[str, list[Step]] = step.get("on", {})
        params = dict(step.get("params", {}))
        if not step.get("await", True):
            self.send_request(str(step["method"]), params)
            return []
        answer = self._ask(str(step["method"]), params)
        if "error" in answer:
            return list(branches.get("error", []))
        result = answer.get("result")
        outcome = result.get("outcome") if isinstance(result, dict) else None
        name = outcome.get("outcome") if isinstance(outcome, dict) else None
        return list(branches.get(name if isinstance(name, str) else "cancelled", []))
