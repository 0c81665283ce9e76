"""A tiny stdio MCP server (stdlib only) that tells its client what it saw, for the fake's
MCP tests (tests/fake/mcp_place.py, test_fake_acp_mcp.py).

``python mcp_echo_server.py PIDFILE [MODE] [ARGS...]`` writes its pid to PIDFILE, then serves
newline-delimited JSON-RPC on stdin/stdout until stdin closes (then it appends ``ended`` to
PIDFILE). Its one tool, ``echo``, answers a JSON text: the call's ``arguments``, the
server's ``argv`` (after PIDFILE), ``cwd``, the value of ``$ECHO_VALUE``, the
``initialize`` params and the methods seen so far. ``MODE``: ``exit`` exits at once
(status 3); ``stuck`` reads nothing and never ends by itself; ``linger`` serves, then stays
alive after stdin closes; ``error`` answers ``tools/call`` with a JSON-RPC error;
``noisy`` sends garbage, a notification and a ping before each answer; ``bad_list``
answers ``tools/list`` with ``tools`` that is no list. With ``$ECHO_LOG`` set, each
message's method (``answer`` for an answer) is appended to that file as a line, before
the server answers it: a test reads what the server was asked, and when.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> None:
    pid_file = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    with open(pid_file, "w") as file:
        file.write(f"{os.getpid()}\n")
    if mode == "exit":
        sys.exit(3)
    if mode == "stuck":
        time.sleep(3600)  # reads nothing, answers nothing, ignores EOF: only a signal ends it
    seen: list[str] = []
    initialize: dict[str, object] = {}
    for line in sys.stdin:
        message = json.loads(line)
        seen.append(message.get("method", "answer"))
        if os.environ.get("ECHO_LOG"):
            with open(os.environ["ECHO_LOG"], "a") as file:
                file.write(seen[-1] + "\n")
        if "id" not in message:
            continue
        method = message.get("method")
        if mode == "noisy":
            # Before every answer: a line that is no JSON, one that is no object, a
            # notification and a request of the server's own (a ping).
            print("not json\n[1, 2]", flush=True)
            note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {}}
            print(json.dumps(note), flush=True)
            print(json.dumps({"jsonrpc": "2.0", "id": "srv", "method": "ping"}), flush=True)
        if mode == "bad_list" and method == "tools/list":
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": {"tools": "none"}}
            print(json.dumps(reply), flush=True)
            continue
        result: object
        if method == "initialize":
            initialize = message["params"]
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "echo", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}
        elif method == "tools/call" and mode == "error":
            error = {"code": -32000, "message": "echo is broken"}
            print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}), flush=True)
            continue
        elif method == "tools/call":
            said = {
                "arguments": message["params"]["arguments"],
                "argv": sys.argv[2:],
                "cwd": os.getcwd(),
                "value": os.environ.get("ECHO_VALUE"),
                "initialize": initialize,
                "seen": seen,
            }
            result = {"content": [{"type": "text", "text": json.dumps(said)}], "isError": False}
        else:
            error = {"code": -32601, "message": "Method not found"}
            print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}), flush=True)
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
    with open(pid_file, "a") as file:
        file.write("ended\n")
    if mode == "linger":
        time.sleep(3600)  # stdin closed, and still alive: only a signal ends it


if __name__ == "__main__":
    main()
