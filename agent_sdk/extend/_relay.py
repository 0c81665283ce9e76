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
anywhere. The first argument is the mode: ``mcp`` (the default) is the only one today; a
hook mode will be another (docs/extend.md).
"""

from __future__ import annotations

import os
import selectors
import socket
import sys

SOCKET_ENV = "AGENT_SDK_TOOLS_SOCKET"
TOKEN_ENV = "AGENT_SDK_TOOLS_TOKEN"  # noqa: S105  (the variable's name, not a secret)
MODES = ("mcp",)
_CHUNK = 65536


class RelayError(Exception):
    """What went wrong, in words for stderr (never holding the token)."""


def _settings(environ: dict[str, str]) -> tuple[str, bytes]:
    path = environ.get(SOCKET_ENV, "")
    token = environ.get(TOKEN_ENV, "")
    if not path:
        raise RelayError(
            f"{SOCKET_ENV} is not set: this relay is started by agent_sdk's runs, with the "
            "path of the tools' socket in its environment"
        )
    if not token or "\n" in token:
        raise RelayError(
            f"{TOKEN_ENV} is not set (or not one line): the run's MCP entry must pass it "
            "(in mcp.json, as ${env:" + TOKEN_ENV + "})"
        )
    return path, token.encode("utf-8", "surrogateescape")


def _connect(path: str, token: bytes) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        sock.sendall(token + b"\n")
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


def main(argv: list[str], environ: dict[str, str]) -> int:
    """Run the relay; the exit status."""
    mode = argv[1] if len(argv) > 1 else "mcp"
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
