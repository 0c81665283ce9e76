"""A process that serves a few tools over MCP's stdio transport, for the official MCP
client's tests (tests/extend/test_official_client.py): ``python tools_server.py BACKEND``
runs the server on anyio's BACKEND (asyncio or trio).

Its stderr says ``pid N`` when it starts and ``served`` when it ended by itself (stdin
closed); a process the client had to kill never writes ``served``. The tool ``fail``
raises an error holding the value of ``$TOOLS_SERVER_SECRET``, which the server's
redaction must hide.
"""

from __future__ import annotations

import os
import sys

import anyio
import msgspec

from agent_sdk._options.redaction import Redaction
from agent_sdk.extend import tool
from agent_sdk.extend._stdio import serve_stdio


class Issue(msgspec.Struct):
    """An issue of the project."""

    number: int
    title: str
    labels: list[str] = []


@tool
def add(a: int, b: int = 2) -> int:
    """Add two numbers.

    Args:
        a: the first number.
        b: the second one.
    """
    return a + b


@tool
async def lookup_issue(number: int) -> Issue:
    """Look up an issue by its number.

    Args:
        number: the issue's number, e.g. 26.
    """
    return Issue(number, f"Issue {number}", ["tools"])


@tool(name="greet", description="Say hello to someone.")
async def hello(who: str) -> str:
    return f"Hello, {who}!"


@tool
def fail(reason: str) -> str:
    """Fail, always.

    Args:
        reason: what the error says.
    """
    raise ValueError(f"{reason} (key {os.environ['TOOLS_SERVER_SECRET']})")


@tool
def shout(text: str) -> str:
    """The text in capitals; it also prints it, as a careless tool would.

    Args:
        text: what to shout.
    """
    print(f"shouting {text}")
    return text.upper()


TOOLS = [add, lookup_issue, hello, fail, shout]


def main() -> None:
    print(f"pid {os.getpid()}", file=sys.stderr, flush=True)
    redaction = Redaction([os.environ["TOOLS_SERVER_SECRET"]])
    anyio.run(lambda: serve_stdio(TOOLS, redact=redaction.text), backend=sys.argv[1])
    print("served", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
