"""A small synchronous JSON-RPC client of the fake's ACP mode (``python -m fake_agent
acp``, docs/acp.md), over pipes, for the fake's ACP tests. Reads are bounded (a reader
thread and a queue with a timeout), so a fake that hangs fails the test instead of
stalling the suite; nothing asserts timing.

``start`` does the handshake (``initialize`` + ``session/new``), ``prompt`` sends a turn,
``updates`` and ``texts`` read what came back. The ``client`` fixture (conftest.py) is a
started ``Client``, killed after the test.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from typing import Any

import pytest
from fake_env import ROOT, fake_env

#: Upper bound on one read; only a broken fake ever waits this long.
READ_TIMEOUT = 20.0

Message = dict[str, Any]


class Client:
    """A JSON-RPC client of the fake over its stdin/stdout."""

    def __init__(self, *args: str, **env: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fake_agent", *args, "acp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=fake_env(**env),
            cwd=ROOT,
            start_new_session=True,  # its own group: kill() ends what it left too
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Message) -> None:
        self.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")

    def request(self, method: str, params: Message | None = None) -> int:
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params or {}})
        return request_id

    def notify(self, method: str, params: Message) -> None:
        self.send({"method": method, "params": params})

    def read(self) -> Message:
        try:
            line = self.lines.get(timeout=READ_TIMEOUT)
        except queue.Empty:
            pytest.fail("the fake sent nothing in time")
        assert line, "the fake closed stdout"
        assert line.endswith(b"\n")
        message = json.loads(line)
        assert isinstance(message, dict)
        assert message["jsonrpc"] == "2.0"
        return message

    def until_response(self, request_id: int) -> tuple[list[Message], Message]:
        """Everything read up to the response to ``request_id``, and that response."""
        seen: list[Message] = []
        while True:
            message = self.read()
            if message.get("id") == request_id and "method" not in message:
                return seen, message
            seen.append(message)

    def call(self, method: str, params: Message | None = None) -> Message:
        """Send a request; the response (messages before it must be none)."""
        seen, response = self.until_response(self.request(method, params))
        assert seen == []
        return response

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=READ_TIMEOUT)
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=READ_TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


INIT: Message = {
    "protocolVersion": 1,
    "clientCapabilities": {
        "fs": {"readTextFile": False, "writeTextFile": False},
        "terminal": False,
    },
    "clientInfo": {"name": "agent_sdk", "version": "0.1.0"},
}


def start(client: Client, cwd: str = "/home/dev/shop") -> str:
    """initialize + session/new; the session id (the command list update is consumed)."""
    assert "result" in client.call("initialize", INIT)
    response = client.call("session/new", {"cwd": cwd, "mcpServers": []})
    session_id = response["result"]["sessionId"]
    update = client.read()
    assert update["method"] == "session/update"
    assert update["params"]["update"]["sessionUpdate"] == "available_commands_update"
    return str(session_id)


def prompt(client: Client, session_id: str, text: str) -> int:
    params = {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}
    return client.request("session/prompt", params)


def updates(messages: list[Message]) -> list[Message]:
    assert all(m["method"] == "session/update" for m in messages)
    return [m["params"]["update"] for m in messages]


def texts(items: list[Message], kind: str) -> str:
    return "".join(u["content"]["text"] for u in items if u["sessionUpdate"] == kind)
