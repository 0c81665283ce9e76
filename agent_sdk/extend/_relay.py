"""The relay: the command the CLI starts as the MCP server ``agent_sdk`` (docs/extend.md,
"How the tools reach the CLI").

It is a script, run as ``python -I -S <this file> mcp``: standard library only, no import
of agent_sdk, so it starts in milliseconds. From its environment it takes
``AGENT_SDK_TOOLS_SOCKET`` (the path of the host's Unix socket, not secret) and
``AGENT_SDK_TOOLS_TOKEN`` (the run's secret); it connects, sends the token as the first
line, then copies bytes stdin -> socket and socket -> stdout until either side ends, and
exits. Its parent's death ends it too: it holds the CLI's pipes, so the CLI gone is EOF on
stdin.

A failure is said on stderr in words, with exit status 1; the token is never written
anywhere. The first argument is the mode:

- ``mcp`` (the default): the MCP server, as above.
- ``hook <socket path>``: one hook call (docs/extend.md, "How hooks reach the program"). The
  CLI runs it through its shell with the event's JSON on stdin; the socket's path is the
  argument (``hooks.json`` has no ``env``), the token comes from the environment
  (``AGENT_SDK_HOOKS_TOKEN``).
  It sends ``<token> hook`` as its first line (a token never holds a space: an MCP
  session's first line is the token alone), then the payload, and half-closes; the host
  answers ``<exit code> <stdout bytes> <stderr bytes>`` on a line, then those bytes. The
  relay writes them and exits with the code. When it cannot reach the host (or gets no
  whole answer) it exits **2** with words on stderr: exit 2 blocks a gate (docs/protocol.md
  §6.4), as ``failClosed`` would.
"""

from __future__ import annotations

import json
import os
import selectors
import socket
import sys

SOCKET_ENV = "AGENT_SDK_TOOLS_SOCKET"
TOKEN_ENV = "AGENT_SDK_TOOLS_TOKEN"  # noqa: S105  (the variable's name, not a secret)
# The hook mode's own variable: a fleet task's worktree serves its tools from the task's
# host (TOKEN_ENV) while each run serves its hooks from its own (docs/extend.md).
HOOKS_TOKEN_ENV = "AGENT_SDK_HOOKS_TOKEN"  # noqa: S105  (the variable's name)
MODES = ("mcp", "hook")
HOOK_MODE = b"hook"  # after the token, one space between, on the first line
HOOK_BLOCKS = 2  # the exit code that blocks a gate (docs/protocol.md §6.4)
#: The events whose hook decides (docs/protocol.md §6.3): denied when the program is gone.
GATES = ("preToolUse", "beforeShellExecution", "beforeMCPExecution", "subagentStart")
_CHUNK = 65536
_ANSWER_HEAD_MAX = 64  # bytes of the answer's first line: three numbers


class RelayError(Exception):
    """What went wrong, in words for stderr (never holding the token)."""


def _settings(environ: dict[str, str], path: str | None = None) -> tuple[str, bytes]:
    path_given = path is not None
    path = environ.get(SOCKET_ENV, "") if path is None else path
    name = HOOKS_TOKEN_ENV if path_given else TOKEN_ENV
    token = environ.get(name, "")
    if not path:
        raise RelayError(
            f"{SOCKET_ENV} is not set: this relay is started by agent_sdk's runs, with the "
            "path of the tools' socket in its environment"
        )
    if not token or "\n" in token or " " in token:
        how = (
            "the CLI must pass its environment to hook processes (docs/extend.md, "
            '"How hooks reach the program")'
            if path_given
            else "the run's MCP entry must pass it (in mcp.json, as ${env:" + TOKEN_ENV + "})"
        )
        raise RelayError(f"{name} is not set (or not one word): {how}")
    return path, token.encode("utf-8", "surrogateescape")


def _connect(path: str, token: bytes, first_line: bytes | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        sock.sendall((token if first_line is None else first_line) + b"\n")
    except OSError as exc:
        sock.close()
        raise RelayError(
            f"cannot reach the tools of the agent_sdk run at {path}: {exc.strerror or exc} "
            "(the run that serves them has ended?)"
        ) from None
    return sock


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _splice(sock: socket.socket, stdin: int, stdout: int) -> None:
    """Copy both ways until stdin ends, the socket ends, or a write fails."""
    with selectors.DefaultSelector() as selector:
        selector.register(stdin, selectors.EVENT_READ, "in")
        selector.register(sock, selectors.EVENT_READ, "socket")
        while True:
            for key, _ in selector.select():
                if key.data == "in":
                    data = os.read(stdin, _CHUNK)
                    if not data:
                        return  # the client (the CLI) closed: we are done
                    sock.sendall(data)
                else:
                    data = sock.recv(_CHUNK)
                    if not data:
                        return  # the host is gone (its run ended)
                    _write_all(stdout, data)


def _read_payload(stdin: int) -> bytes:
    """The event's JSON from stdin: until EOF, or until a whole JSON value ended a line
    (a CLI that would keep stdin open must not hang the hook until its timeout)."""
    data = bytearray()
    while True:
        chunk = os.read(stdin, _CHUNK)
        if not chunk:
            return bytes(data)
        data += chunk
        if data.endswith(b"\n"):
            try:
                json.loads(data)
            except (ValueError, RecursionError):  # not whole yet, or not JSON: the host says
                continue
            return bytes(data)


def _read_answer(sock: socket.socket) -> tuple[int, bytes, bytes]:
    """The host's answer: the exit code, stdout's and stderr's bytes."""
    data = bytearray()
    while True:
        chunk = sock.recv(_CHUNK)
        if not chunk:
            break
        data += chunk
    head, newline, rest = bytes(data).partition(b"\n")
    fields = head.split(b" ") if newline and len(head) <= _ANSWER_HEAD_MAX else []
    if not data:
        raise RelayError(
            "the agent_sdk run did not answer this hook: it refused the connection (only the "
            "CLI's own hook commands are admitted) or ended"
        )
    if len(fields) != 3 or not all(field.isdigit() for field in fields):
        raise RelayError("the agent_sdk run's answer to this hook was cut short")
    code, out, err = (int(field) for field in fields)
    if len(rest) != out + err or code > 255:
        raise RelayError("the agent_sdk run's answer to this hook was cut short")
    return code, rest[:out], rest[out:]


def _unreached(why: str, payload: bytes) -> int:
    """The program could not be asked: valid JSON on stdout on every path (the CLI blocks
    a call whose hook printed anything else, docs/protocol.md §6.1). A gate denies, with
    the reason, and exits 2 (which blocks too, §6.4); an observer lets the run go on."""
    try:
        event = json.loads(payload).get("hook_event_name")
    except (ValueError, RecursionError, AttributeError):
        event = None  # not an event we know: a gate, to be safe
    if event not in GATES and event is not None:
        sys.stderr.write(f"agent_sdk relay: {why}\n")
        _write_all(sys.stdout.fileno(), b"{}\n")
        return 0
    reason = f"agent_sdk relay: {why}; the call was blocked"
    sys.stderr.write(reason + "\n")
    _write_all(
        sys.stdout.fileno(),
        json.dumps({"permission": "deny", "user_message": reason}).encode() + b"\n",
    )
    return HOOK_BLOCKS


def hook(argv: list[str], environ: dict[str, str]) -> int:
    """One hook call (see the module's docstring); the exit status."""
    payload = b""
    try:
        if len(argv) != 3:
            raise RelayError("hook mode takes the socket's path as its one argument")
        path, token = _settings(environ, argv[2])
        payload = _read_payload(sys.stdin.fileno())
        sock = _connect(path, token, token + b" " + HOOK_MODE)
        try:
            sock.sendall(payload)
            sock.shutdown(socket.SHUT_WR)
            code, out, err = _read_answer(sock)
        except OSError as exc:
            raise RelayError(
                f"lost the agent_sdk run at {path} during the hook: {exc.strerror or exc}"
            ) from None
        finally:
            sock.close()
    except RelayError as exc:
        return _unreached(str(exc), payload)
    _write_all(sys.stdout.fileno(), out)
    _write_all(sys.stderr.fileno(), err)
    return code


def main(argv: list[str], environ: dict[str, str]) -> int:
    """Run the relay; the exit status."""
    mode = argv[1] if len(argv) > 1 else "mcp"
    if mode == "hook":
        return hook(argv, environ)
    try:
        if mode not in MODES:
            raise RelayError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
        path, token = _settings(environ)
        sock = _connect(path, token)
    except RelayError as exc:
        sys.stderr.write(f"agent_sdk relay: {exc}\n")
        return 1
    try:
        _splice(sock, sys.stdin.fileno(), sys.stdout.fileno())
    except OSError:
        pass  # a side went away mid-copy: either end closing is the normal end
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv, dict(os.environ)))
