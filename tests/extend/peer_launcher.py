"""A stand-in for the CLI in tests/extend/test_peers.py: ``python peer_launcher.py WAY MODE
SOCKET``, started by the test leading a session of its own (as the SDK starts the CLI),
starts a client of the host at ``SOCKET`` in one of the ways below, writes it a request on
its stdin (a ping in ``mcp`` mode, a ``preToolUse`` event in ``hook`` mode), and prints one
JSON object: the client's exit code and what it wrote on stdout.

The token comes from ``TEST_PEER_TOKEN``, and goes into the client's environment only
(``AGENT_SDK_TOOLS_TOKEN``, ``AGENT_SDK_HOOKS_TOKEN``): whether this process's own
environment holds it is the test's choice. ``WAY``:

- ``child``: the relay as this process's child (how the CLI starts an MCP server);
- ``shell``: the relay through ``/bin/sh -c`` (how the CLI runs a hook command);
- ``own_group``: the relay as a child leading a process group of its own;
- ``own_session``: the relay as a child leading a session of its own (how the CLI runs an
  agent's shell command);
- ``orphan``: the relay below a process that exits first (a double fork): it starts once it
  is no longer below this process;
- ``not_the_relay``: the relay's script, run without ``-I -S``;
- ``impostor``: a Python program that connects with the token itself.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

from agent_sdk.extend._host import relay_command

PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
EVENT = b'{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{}}\n'

IMPOSTOR = """
import os, socket, sys
sock = socket.socket(socket.AF_UNIX)
sock.connect(sys.argv[1])
sock.sendall(os.environ["AGENT_SDK_TOOLS_TOKEN"].encode() + b"\\n" + sys.stdin.buffer.readline())
data = b""
while not data.endswith(b"\\n"):
    chunk = sock.recv(65536)
    if not chunk:
        break
    data += chunk
sys.stdout.buffer.write(data)
"""

ORPHAN = """
import os, sys, time
middle = os.getpid()
if os.fork():
    os._exit(0)  # the middle process: gone at once
while os.getppid() == middle:  # until the middle is gone and this one re-parented
    time.sleep(0.001)
os.execv(sys.argv[1], sys.argv[1:])
"""


def client(way: str, mode: str, path: str) -> list[str]:
    relay = relay_command(*((mode, path) if mode == "hook" else (mode,)))
    if way == "shell":
        return ["/bin/sh", "-c", shlex.join(relay)]
    if way == "orphan":
        return [sys.executable, "-c", ORPHAN, *relay]
    if way == "not_the_relay":
        return [sys.executable, *relay[3:]]
    if way == "impostor":
        return [sys.executable, "-c", IMPOSTOR, path]
    return relay


def main() -> None:
    way, mode, path = sys.argv[1:4]
    token = os.environ["TEST_PEER_TOKEN"]
    env = {
        **os.environ,
        "AGENT_SDK_TOOLS_SOCKET": path,
        "AGENT_SDK_TOOLS_TOKEN": token,
        "AGENT_SDK_HOOKS_TOKEN": token,
    }
    process = subprocess.Popen(
        client(way, mode, path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        preexec_fn=os.setpgrp if way == "own_group" else None,
        start_new_session=way == "own_session",
    )
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(PING if mode == "mcp" else EVENT)
    process.stdin.flush()
    # Stdin stays open until the answer's line (or the end): the relay in mcp mode ends
    # when its stdin does, perhaps before the answer came.
    first = process.stdout.readline()
    process.stdin.close()
    out = first + process.stdout.read()  # the end: every process holding it is gone
    code = process.wait()
    print(json.dumps({"code": code, "out": out.decode("utf-8", "replace")}))


if __name__ == "__main__":
    main()
