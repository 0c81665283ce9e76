"""The fake's MCP client: a stdio server started and spoken to as the real CLI does
(docs/protocol.md §7, docs/acp.md §5.2 item 2).

A server is started with its ``command`` and ``args`` (no shell), the environment given,
stdin and stdout as pipes, and stderr the fake's own (what the real CLI does with a
server's stderr is unknown). It stays in the fake's process group, so ending the group
ends it too; and every exit path of the fake ends it: :func:`end_all` at the end of a run,
before a ``kill`` directive, and from a SIGTERM handler installed with the first server.

The conversation is newline-delimited JSON-RPC 2.0: ``initialize`` (protocol
``2025-11-25``, client ``Cursor`` ``1.0.0``), ``notifications/initialized``, then
``tools/list`` and ``tools/call``. Requests the server sends are answered ``-32601``
(``ping`` with ``{}``); notifications are dropped. An answer that does not come within
``$FAKE_AGENT_MCP_TIMEOUT`` seconds (default 30) is a failure, as is a server that exits.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Mapping
from typing import Any, Protocol

#: Env var: seconds the fake waits for each answer of a server (default 30).
TIMEOUT_ENV = "FAKE_AGENT_MCP_TIMEOUT"
DEFAULT_TIMEOUT = 30.0

PROTOCOL_VERSION = "2025-11-25"
CLIENT_INFO = {"name": "Cursor", "version": "1.0.0"}

#: How long a server has to end by itself once its stdin is closed, then after SIGTERM.
_GRACE = 2.0


class Child(Protocol):
    """A process the fake must end on every way out (an MCP server, a running hook)."""

    def end(self, grace: float = _GRACE) -> None:
        """End it: politely within ``grace`` seconds, then by force."""


_RUNNING: list[Child] = []


def track(child: Child) -> None:
    """End ``child`` with :func:`end_all` (and on SIGTERM) until :func:`untrack`."""
    _RUNNING.append(child)
    _install_sigterm_handler()


def untrack(child: Child) -> None:
    if child in _RUNNING:
        _RUNNING.remove(child)


class McpError(Exception):
    """A server that could not be started or did not answer; ``str()`` says why."""


def answer_timeout(environ: Mapping[str, str]) -> float:
    """``$FAKE_AGENT_MCP_TIMEOUT`` as seconds (> 0), else the default."""
    try:
        value = float(environ.get(TIMEOUT_ENV, ""))
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


class McpConnection:
    """One running server and the JSON-RPC conversation with it."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], cwd: str) -> None:
        import subprocess  # only runs that use MCP pay for it

        self.name = name
        self.tools: list[dict[str, Any]] = []
        self._next_id = 0
        self._buffer = b""
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                cwd=cwd,
            )
        except OSError as exc:
            raise McpError(f'MCP server "{name}" failed to start: {exc.strerror}') from exc
        track(self)

    @property
    def pid(self) -> int:
        return self._proc.pid

    def _write(self, message: dict[str, Any]) -> None:
        data = json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")) + "\n"
        stdin = self._proc.stdin
        try:
            assert stdin is not None
            stdin.write(data.encode("utf-8"))
            stdin.flush()
        except (OSError, ValueError) as exc:
            raise McpError(f'MCP server "{self.name}" closed the connection') from exc

    def _read_line(self, deadline: float, method: str) -> bytes:
        import select
        import time

        stdout = self._proc.stdout
        assert stdout is not None
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise McpError(f'MCP server "{self.name}" did not answer {method} in time')
            ready, _, _ = select.select([stdout.fileno()], [], [], left)
            if not ready:
                continue
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise McpError(f'MCP server "{self.name}" closed the connection')
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def request(self, method: str, params: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request, wait for its answer; the whole answer (``result`` or ``error``)."""
        import time

        request_id = self._next_id
        self._next_id += 1
        self._write({"id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            line = self._read_line(deadline, method)
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not JSON: dropped (a careless server printing to stdout)
            if not isinstance(message, dict):
                continue
            if "method" in message:
                self._server_message(message)
            elif message.get("id") == request_id:
                return message

    def _server_message(self, message: dict[str, Any]) -> None:
        if "id" not in message:
            return  # a notification: nothing to do
        if message.get("method") == "ping":
            self._write({"id": message["id"], "result": {}})
        else:
            error = {"code": -32601, "message": "Method not found"}
            self._write({"id": message["id"], "error": error})

    def open(self, timeout: float) -> None:
        """``initialize``, ``notifications/initialized``, then ``tools/list``."""
        answer = self.request(
            "initialize",
            {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": CLIENT_INFO},
            timeout,
        )
        if "result" not in answer:
            raise McpError(f'MCP server "{self.name}" refused initialize: {error_text(answer)}')
        self._write({"method": "notifications/initialized"})
        listed = self.request("tools/list", {}, timeout)
        tools = listed.get("result", {}).get("tools") if "result" in listed else None
        if not isinstance(tools, list):
            raise McpError(f'MCP server "{self.name}" refused tools/list: {error_text(listed)}')
        self.tools = [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]

    def has_tool(self, tool: str) -> bool:
        return any(t["name"] == tool for t in self.tools)

    def call(self, tool: str, arguments: dict[str, Any], timeout: float) -> dict[str, Any]:
        """``tools/call``: its answer (``result`` or ``error``)."""
        return self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)

    def end(self, grace: float = _GRACE) -> None:
        """Close stdin, give it ``grace`` seconds to end, then SIGTERM, then SIGKILL."""
        import subprocess

        untrack(self)
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        except OSError:
            pass
        for step in (None, self._proc.terminate, self._proc.kill):
            if step is not None:
                step()
            try:
                self._proc.wait(grace)
                break
            except subprocess.TimeoutExpired:
                continue
        if self._proc.stdout is not None:
            self._proc.stdout.close()


def error_text(answer: dict[str, Any]) -> str:
    """An error answer in the words the real CLI shows for one (docs/acp.md §3.10:
    ``MCP error -32601: Method not found``)."""
    error = answer.get("error")
    if isinstance(error, dict):
        return f"MCP error {error.get('code')}: {error.get('message')}"
    return "MCP error: no result"


def end_all(grace: float = _GRACE) -> None:
    """End every running server and hook (a ``kill`` directive, SIGTERM)."""
    for connection in list(_RUNNING):
        connection.end(grace)


def _on_sigterm(number: int, frame: Any) -> None:
    end_all(grace=0.5)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _install_sigterm_handler() -> None:
    """End the servers on SIGTERM, then die of it; never over a handler set by someone
    else (the ``ignore_sigterm`` directive's SIG_IGN stays)."""
    import threading

    in_main = threading.current_thread() is threading.main_thread()
    if in_main and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)
