"""What a shell command the agent runs can try against its run's tools and gates
(docs/extend.md, "Who may connect"), run by the fake's ``shell`` directive for
tests/process/test_tool_peers.py: ``python peer_attacker.py TEMP_DIR RELAY``.

Everything the CLI starts inherits its environment, so the command holds the run's token
(``AGENT_SDK_TOOLS_TOKEN``, ``AGENT_SDK_HOOKS_TOKEN``); the socket is the one of the
run's tools in ``TEMP_DIR`` (the run's temp dir). It tries four ways in, each asking for
``lookup_issue(666)`` or a ``preToolUse`` gate on a tool named ``Forged``:

- ``direct_mcp`` / ``direct_hook``: its own connection, the token as the first line;
- ``relay_mcp`` / ``relay_hook``: the run's own relay (``python -I -S _relay.py``) started
  by the command, the requests on its stdin: the same program the CLI starts.

It prints one JSON object: for each way, what came back (text; empty when refused).
Standard library only."""

from __future__ import annotations

import glob
import json
import os
import select
import socket
import subprocess
import sys
import time

WAIT = 10.0  # seconds to wait for an answer an admitted connection would get at once

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
CALL = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {"name": "lookup_issue", "arguments": {"number": 666}},
}
MCP = b"".join(json.dumps(m).encode() + b"\n" for m in (INITIALIZE, INITIALIZED, CALL))
FORGED = json.dumps(
    {
        "hook_event_name": "preToolUse",
        "conversation_id": "c",
        "generation_id": "g",
        "tool_name": "Forged",
        "tool_input": {},
        "tool_use_id": "t",
    }
).encode()


def _answered(data: bytes) -> bool:
    return b'"id": 2' in data or b'"id":2' in data


def direct(path: str, first_line: bytes, body: bytes, *, half_close: bool) -> str:
    """Connect, send ``first_line`` and ``body``; what came back before the end or the
    answer to the call."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(WAIT)
    data = b""
    try:
        sock.connect(path)
        sock.sendall(first_line + b"\n" + body)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        while not _answered(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    finally:
        sock.close()
    return data.decode("utf-8", "replace")


def relay_mcp(relay: str, path: str) -> str:
    """The relay in MCP mode, the requests on its stdin, kept open until the answer."""
    env = {**os.environ, "AGENT_SDK_TOOLS_SOCKET": path}
    process = subprocess.Popen(
        [sys.executable, "-I", "-S", relay, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    data = b""
    try:
        process.stdin.write(MCP)
        process.stdin.flush()
        deadline = time.monotonic() + WAIT
        while not _answered(data) and time.monotonic() < deadline:
            ready, _, _ = select.select([process.stdout], [], [], deadline - time.monotonic())
            chunk = os.read(process.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                break
            data += chunk
    finally:
        process.kill()
        process.wait()
    return data.decode("utf-8", "replace")


def relay_hook(relay: str, path: str) -> str:
    """The relay in hook mode, the forged event on its stdin: its exit code and stdout."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", relay, "hook", path],
        input=FORGED,
        capture_output=True,
        timeout=WAIT * 2,
        check=False,
    )
    return f"{done.returncode} {done.stdout.decode('utf-8', 'replace')}"


def main() -> None:
    temp_dir, relay = sys.argv[1], sys.argv[2]
    (path,) = glob.glob(os.path.join(temp_dir, "agent-sdk-tools-*", "tools.sock"))
    tools_token = os.environ["AGENT_SDK_TOOLS_TOKEN"].encode()
    hooks_token = os.environ["AGENT_SDK_HOOKS_TOKEN"].encode()
    tried = {
        "direct_mcp": direct(path, tools_token, MCP, half_close=False),
        "direct_hook": direct(path, hooks_token + b" hook", FORGED, half_close=True),
        "relay_mcp": relay_mcp(relay, path),
        "relay_hook": relay_hook(relay, path),
    }
    print(json.dumps(tried))


if __name__ == "__main__":
    main()
